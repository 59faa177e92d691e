"""The `hybridgym` command: list tasks, run one episode, benchmark agents on suites (recorded, on N workers,
resumable), and read runs: report (HTML), replay (check a trajectory again), export (training data).

Agents (`--agent`, a comma-separated list for bench): the built-in ones (oracle, random, noop, adversary,
adversary:<cheat>), "chat" (a model behind an OpenAI-compatible endpoint: `--base-url`, `--model`,
`--schema` its family, `--api-key`, `--history`) and "module:Class", a class of the user's own,
instantiated with no arguments, with `act(obs)` (and `reset(env, obs, info)`; see
`hybridgym.agents.Agent`); the module is imported from the current folder or the Python path.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

import gymnasium as gym


def _envs_for(suites):
    import hybridgym
    return {s: gym.make(hybridgym.SUITE_IDS[s]) for s in suites}


def _unknown_suite(suite: str | None) -> bool:
    from hybridgym.tasks.base import SUITES
    if suite is not None and suite not in SUITES:
        print(f"unknown suite {suite!r}; suites: {', '.join(SUITES)}", file=sys.stderr)
        return True
    return False


class AgentSpecError(ValueError):
    """An --agent the command cannot make: the message says what was wrong and what is accepted."""


def make_agents(args) -> list:
    """The agents of `--agent` (comma-separated), each built-in, "chat" or "module:Class"."""
    names = [name.strip() for name in args.agent.split(",") if name.strip()]
    if not names:
        _refuse("--agent is empty; give oracle, random, noop, adversary, chat or module:Class")
    return [_make_agent(name, args) for name in names]


def _refuse(message: str):
    raise AgentSpecError(message)


def _make_agent(name: str, args):
    from hybridgym.agents import make_agent
    if name == "chat":
        from hybridgym.agents import ChatAgent
        missing = [flag for flag, value in (("--base-url", args.base_url), ("--model", args.model)) if not value]
        if missing:
            _refuse(f"--agent chat needs {' and '.join(missing)} (e.g. --base-url http://127.0.0.1:8000/v1 "
                    f"--model NAME --schema uitars2)")
        try:
            return ChatAgent(base_url=args.base_url, model=args.model, schema=args.schema, api_key=args.api_key,
                             history=args.history)
        except ValueError as e:        # an unknown family, a history below 1
            _refuse(f"--agent chat: {e}")
    module_name, colon, class_name = name.partition(":")
    if not colon or module_name == "adversary":
        try:
            return make_agent(name)
        except ValueError as e:
            _refuse(f"{e}; or chat, or module:Class for an agent class of your own")
    return _user_agent(module_name, class_name)


def _user_agent(module_name: str, class_name: str):
    """An instance of the user's `module:Class` (made with no arguments), checked to have act(obs)."""
    spec = f"{module_name}:{class_name}"
    if not module_name or not class_name:
        _refuse(f"--agent {spec!r}: write module:Class, e.g. my_agents:MyAgent")
    if os.getcwd() not in sys.path:       # a module in the current folder, as `python -m` finds it
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        _refuse(f"--agent {spec}: cannot import module {module_name!r} ({e}); it must be on the Python path or "
                f"in the current folder")
    except Exception as e:       # the module itself is broken: a syntax error, an error at its import
        _refuse(f"--agent {spec}: importing module {module_name!r} failed: {type(e).__name__}: {e}")
    cls = getattr(module, class_name, None)
    if cls is None:
        _refuse(f"--agent {spec}: module {module_name!r} ({getattr(module, '__file__', '?')}) has no "
                f"{class_name!r}")
    if not callable(cls):
        _refuse(f"--agent {spec}: {class_name} is a {type(cls).__name__}, not an agent class")
    try:
        agent = cls()
    except TypeError as e:
        _refuse(f"--agent {spec}: {class_name}() failed ({e}); an agent class is made with no arguments")
    if not callable(getattr(agent, "act", None)):
        _refuse(f"--agent {spec}: {class_name} has no act(obs) method; an agent has act(obs) -> action and "
                f"reset(env, obs, info) (subclass hybridgym.agents.Agent)")
    if not callable(getattr(agent, "reset", None)):
        _refuse(f"--agent {spec}: {class_name} has no reset(env, obs, info) method (called after each env reset; "
                f"subclass hybridgym.agents.Agent for one that does nothing)")
    if not getattr(agent, "name", ""):
        agent.name = class_name
    return agent


def _agent_options(parser) -> None:
    parser.add_argument("--base-url",
                        help="--agent chat: the OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--model", help="--agent chat: the model name the endpoint serves")
    parser.add_argument("--schema", default="seed",
                        help="--agent chat: the model's family: seed/uitars2, uitars/uitars1.5, qwen/qwen2.5, qwen3, "
                             "openai, anthropic/claude, pyautogui (default: seed)")
    parser.add_argument("--api-key", help="--agent chat: the endpoint's key (default: $OPENAI_API_KEY)")
    parser.add_argument("--history", type=int, default=3, help="--agent chat: screenshots per request (default 3)")


def cmd_list(args) -> int:
    import hybridgym  # noqa: F401  (the catalogue)
    from hybridgym.suites import SUITE_SPECS
    from hybridgym.tasks.base import SUITES, UNAVAILABLE, tasks_of
    if _unknown_suite(args.suite):
        return 2
    for suite in SUITES:
        if args.suite and suite != args.suite:
            continue
        tasks = sorted(tasks_of(suite), key=lambda t: t.id)
        print(f"{suite} ({len(tasks)} tasks): {SUITE_SPECS[suite].summary}")
        if not tasks and suite in UNAVAILABLE:
            print(f"  unavailable: {UNAVAILABLE[suite]}")
        for t in tasks:
            doc = (t.__doc__ or "").strip().splitlines()[0] if (t.__doc__ or "").strip() else ""
            flags = " [sdk]" if t.sdk else ""
            print(f"  hybridgym/{t.id:40s} max_steps={t.max_steps:<4d}{flags} {doc}")
    return 0


def cmd_run(args) -> int:
    import hybridgym  # noqa: F401
    from hybridgym.agents import run_episode
    from hybridgym.trajectory import RecordTrajectory
    try:
        agent = _make_agent(args.agent, args)
    except AgentSpecError as e:
        print(e, file=sys.stderr)
        return 2
    env = RecordTrajectory(gym.make(f"hybridgym/{args.task.split('/', 1)[-1]}"), args.out, agent=agent,
                           image_format=args.image_format)
    try:
        def show(step, obs, info):
            print(f"step {step}: actions={info['actions']} error={info['action_error']} "
                  f"step_s={info['timings']['step_s']:.3f}", flush=True)
        summary = run_episode(env, agent, args.seed, on_step=show)
        summary["episode"] = env.last_episode.name
    finally:
        env.close()
    print(f"trajectory: {env.last_episode} (hybridgym replay / report / export read it)", file=sys.stderr)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["error"] is None else 1


def cmd_bench(args) -> int:
    import functools

    import hybridgym  # noqa: F401
    from hybridgym.runs import RESULTS, run_benchmark
    from hybridgym.tasks.base import SUITES, TASKS
    if _unknown_suite(args.suite):
        return 2
    suites = [args.suite] if args.suite else list(SUITES)
    try:
        agents = make_agents(args)
    except AgentSpecError as e:
        print(e, file=sys.stderr)
        return 2
    names = [a.name for a in agents]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        print(f"--agent names {', '.join(twice)} more than once: each agent's episodes are told apart by its "
              f"name", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"--workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    tasks = sorted((t for t in TASKS.values() if t.suite in suites and (not args.task or t.id == args.task)),
                   key=lambda t: t.id)
    if not tasks:
        print("no task matches", file=sys.stderr)
        return 2
    results_path = Path(args.out) if args.out else (Path(args.record) / RESULTS if args.record else None)
    if (results_path is not None and not args.resume and not args.force and results_path.is_file()
            and results_path.stat().st_size and args.record):
        print(f"{results_path} already holds results: pass --resume to play only the episodes it lacks, or "
              f"--force to start over", file=sys.stderr)
        return 2
    seeds = list(range(args.seed, args.seed + args.episodes))
    results, new = run_benchmark(tasks, agents, seeds, make_agents=functools.partial(make_agents, args),
                                 out=args.out, record=args.record, workers=args.workers, resume=args.resume,
                                 progress=not args.no_progress, verbose=args.verbose,
                                 image_format=args.image_format)
    _print_table(results)
    crashed = [r for r in new if r.get("traceback")]
    for r in crashed[:10]:
        print(f"episode {r['task_id']} / {r['agent']} / seed {r['seed']} raised: {r['error']}", file=sys.stderr)
    if results_path is not None:
        where = results_path.parent if results_path.name == RESULTS else results_path.with_suffix("")
        print(f"results: {results_path}; summary: {where}{'/summary' if results_path.name == RESULTS else ''}"
              f".md and .csv" + (f"; trajectories: {args.record} (hybridgym report {args.record})"
                                 if args.record else ""), file=sys.stderr)
    return 1 if crashed else 0


def _print_table(results) -> None:
    groups = defaultdict(list)
    for r in results:
        groups[(r["task_id"], r["agent"])].append(r)
    head = (f"{'task':42s} {'agent':9s} {'n':>3s} {'success':>8s} {'reward':>8s} {'steps':>6s} {'wall_s':>7s}"
            f" {'norm':>6s}")
    print(head)
    print("-" * len(head))
    for (task, agent), rs in sorted(groups.items()):
        n = len(rs)
        norms = [r["normalized_score"] for r in rs if r.get("normalized_score") is not None]
        norm = f"{sum(norms) / len(norms):6.0f}" if norms else f"{'':6s}"
        walls = [r["wall_s"] for r in rs if r.get("wall_s") is not None]
        print(f"{task:42s} {agent:9s} {n:3d} {sum(bool(r['success']) for r in rs) / n:8.0%} "
              f"{sum(r.get('reward') or 0 for r in rs) / n:8.2f} {sum(r.get('steps') or 0 for r in rs) / n:6.1f} "
              f"{sum(walls) / max(1, len(walls)):7.2f} {norm}")
    by_agent = defaultdict(list)
    for r in results:
        by_agent[r["agent"]].append(bool(r["success"]))
    print("-" * len(head))
    print("norm: game score normalized to 0 = random agent, 100 = scripted player (tasks/game_baselines.json)")
    for agent, s in sorted(by_agent.items()):
        print(f"{'all tasks':42s} {agent:9s} {len(s):3d} {sum(s) / len(s):8.0%}")


def cmd_report(args) -> int:
    from hybridgym.report import main as report_main
    return report_main([args.run_dir] + (["--out", args.out] if args.out else [])
                       + (["--title", args.title] if args.title else []))


def cmd_replay(args) -> int:
    from hybridgym.replay import main as replay_main
    return replay_main(list(args.traj) + ["--mode", args.mode] + (["--json"] if args.json else []))


def cmd_export(argv: list[str]) -> int:
    from hybridgym.export import main as export_main
    return export_main(argv)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="hybridgym", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("list", help="list tasks by suite")
    pl.add_argument("--suite")
    pr = sub.add_parser("run", help="run one episode and record its trajectory (screenshots, actions, result)")
    pr.add_argument("--task", required=True, help="task id, e.g. browser.todo-add-v0")
    pr.add_argument("--agent", default="oracle", help="oracle, random, noop, adversary[:cheat], chat or module:Class")
    pr.add_argument("--seed", type=int, default=0)
    pr.add_argument("--out", default="runs/latest", help="the run folder; the episode is a folder in it")
    pr.add_argument("--image-format", default="png", choices=["png", "webp"], help="screenshots, lossless")
    _agent_options(pr)
    pb = sub.add_parser("bench", help="score agents on suites; one JSON line per episode")
    pb.add_argument("--suite", help="computer, browser, mobile, game or miniwob (default: all)")
    pb.add_argument("--task", help="only this task id")
    pb.add_argument("--agent", default="oracle,random,noop,adversary",
                    help="comma-separated: oracle, random, noop, adversary (or adversary:<cheat>), chat "
                         "(with --base-url, --model, --schema) or module:Class (an agent class of your own)")
    pb.add_argument("--episodes", type=int, default=1, help="episodes per task and agent")
    pb.add_argument("--seed", type=int, default=0, help="first seed")
    pb.add_argument("--out", help="JSON-lines file of results (default with --record: DIR/results.jsonl); the "
                                  "summary is written beside it as .md and .csv")
    pb.add_argument("--record", metavar="DIR",
                    help="record every episode's trajectory in DIR (and the results and summary there)")
    pb.add_argument("--image-format", default="png", choices=["png", "webp"], help="--record: screenshots, lossless")
    pb.add_argument("--workers", type=int, default=1,
                    help="play episodes on N worker processes, each with its own envs (default 1: here)")
    pb.add_argument("--resume", action="store_true",
                    help="keep the results already in the output and play only the episodes they lack")
    pb.add_argument("--force", action="store_true", help="--record: start over in a folder that holds results")
    pb.add_argument("--no-progress", action="store_true", help="no progress bar")
    pb.add_argument("-v", "--verbose", action="store_true", help="print each episode's result line")
    _agent_options(pb)
    prp = sub.add_parser("report", help="write a static HTML report of a run's trajectories")
    prp.add_argument("run_dir", help="a bench --record folder (or any folder of trajectories)")
    prp.add_argument("--out", help="the report's folder (default RUN_DIR/report)")
    prp.add_argument("--title")
    prl = sub.add_parser("replay", help="play recorded episodes again and say whether reward and check agree")
    prl.add_argument("traj", nargs="+", help="an episode folder or a run folder")
    prl.add_argument("--mode", default="parsed", choices=["parsed", "raw"],
                     help="send the parsed actions (default) or what the agent sent, in its schema")
    prl.add_argument("--json", action="store_true", help="one JSON line per episode")
    sub.add_parser("export", help="training data from a run: SFT chat data or a Parquet dataset "
                                  "(hybridgym export --help)", add_help=False)
    sub.add_parser("judge-eval", help="how far a reward (a judge, partial credit, ...) agrees with the checkers on "
                                      "recorded trajectories (hybridgym judge-eval --help)", add_help=False)
    sub.add_parser("mcp", help="serve one task's env as an MCP tool server, stdio or streamable HTTP "
                               "(hybridgym mcp --help; docs/mcp.md)", add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(p, argv)
    except BrokenPipeError:   # `hybridgym list | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _dispatch(p, argv: list[str]) -> int:
    if argv[:1] == ["export"]:    # its options are the export module's own
        return cmd_export(argv[1:])
    if argv[:1] == ["judge-eval"]:
        from hybridgym.judge_eval import main as judge_eval_main
        return judge_eval_main(argv[1:])
    if argv[:1] == ["mcp"]:
        from hybridgym.mcp_server import main as mcp_main
        return mcp_main(argv[1:])
    args = p.parse_args(argv)
    return {"list": cmd_list, "run": cmd_run, "bench": cmd_bench, "report": cmd_report, "replay": cmd_replay}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
