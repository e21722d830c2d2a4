"""POPGym's Easy envs that declare they need the previous action in the observation (`obs_requires_prev_action`:
Battleship, Concentration, MineSweeper, MultiarmedBandit), wrapped as POPGym's own baselines run them: popgym's
PreviousAction wrapper makes each observation the tuple (the env's observation, the action just taken), the null
action at a reset. The env, its rewards and its episodes are POPGym's; only the observation differs.

    python ppo_lstm.py --env-id benchmark.popgym_prev_action:popgym-MineSweeperEasy-PrevAction-v0   # from the repository root

Why: in MineSweeper the observation is the count of mines around the tile just clicked, but not which tile that was;
a policy that samples its clicks cannot tell from the observations alone which tiles it has revealed, and clicking one
again costs reward. The same holds for Battleship's shots, Concentration's cards and the bandit's arms.
"""

import gymnasium as gym
import popgym.envs
from popgym.wrappers import PreviousAction

NAMES = ["BattleshipEasy", "ConcentrationEasy", "MineSweeperEasy", "MultiarmedBanditEasy"]


def make_prev_action(name: str, **kwargs) -> gym.Env:
    return PreviousAction(getattr(popgym.envs, name)(**kwargs))


for _name in NAMES:
    assert getattr(popgym.envs, _name).obs_requires_prev_action, _name
    # once per process: imported as `popgym_prev_action` (benchmark/ on the path) and as `benchmark.popgym_prev_action`
    # (a `module:EnvId` id), it registers the ids the first time only, so gymnasium does not warn of them overridden
    if f"popgym-{_name}-PrevAction-v0" not in gym.registry:
        gym.register(f"popgym-{_name}-PrevAction-v0", entry_point=make_prev_action, kwargs={"name": _name})
