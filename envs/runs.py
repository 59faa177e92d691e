"""A benchmark run: the episodes of tasks x agents x seeds, played in this process or on N worker
processes (each with its own envs), written as they finish (one JSON line each, and a trajectory per
episode when recording), resumable, and summarized as a table, Markdown and CSV.

`hybridgym bench` is the command over this module; `run_benchmark` is its library form.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym

RESULTS, SUMMARY_MD, SUMMARY_CSV = "results.jsonl", "summary.md", "summary.csv"


@dataclass(frozen=True)
class Job:
    """One episode to play: a task, the index and name of an agent of the run, a seed."""
    task_id: str
    suite: str
    agent_index: int
    agent: str
    seed: int

    @property
    def key(self) -> tuple[str, str, int]:
        return self.task_id, self.agent, self.seed


def key_of(record: dict) -> tuple[str, str, int]:
    """The (task, agent, seed) of a result line: what `--resume` skips."""
    return record.get("task_id"), record.get("agent"), record.get("seed")


def plan(tasks: Iterable, agents: Sequence, seeds: Sequence[int]) -> list[Job]:
    """Every (task, agent, seed), by suite then task (a worker keeps one suite's env while it can); the oracle
    only where a task has one."""
    jobs = []
    for task in sorted(tasks, key=lambda t: (t.suite, t.id)):
        for i, agent in enumerate(agents):
            if agent.name == "oracle" and not task.has_oracle:
                continue   # MiniWoB tasks without a scripted solver
            jobs.extend(Job(task.id, task.suite, i, agent.name, seed) for seed in seeds)
    return jobs


def read_results(path: str | os.PathLike) -> list[dict]:
    """The result lines of a JSON-lines file (a line cut short by a crash is left out)."""
    out = []
    p = Path(path)
    if not p.is_file():
        return out
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


class EpisodeRunner:
    """Plays jobs one at a time with the agents of a run: one env at a time (the job's suite's; made when the
    suite changes), recorded into `record_dir` when given. An exception from the episode (the task's set-up,
    the agent's code) is its result's "error", never the end of the run."""

    def __init__(self, agents: Sequence, record_dir: str | os.PathLike | None = None, image_format: str = "png"):
        self.agents = list(agents)
        self.record_dir, self.image_format = record_dir, image_format
        self.suite: str | None = None
        self.env: gym.Env | None = None

    def _env_for(self, suite: str) -> gym.Env:
        if self.env is not None and self.suite == suite:
            return self.env
        self.close()
        import hybridgym
        env = gym.make(hybridgym.SUITE_IDS[suite])
        if self.record_dir is not None:
            from .trajectory import RecordTrajectory
            env = RecordTrajectory(env, self.record_dir, image_format=self.image_format, overwrite=True)
        self.env, self.suite = env, suite
        return env

    def run(self, job: Job) -> dict:
        from .agents import run_episode
        agent = self.agents[job.agent_index]
        t0 = time.perf_counter()
        try:
            env = self._env_for(job.suite)
            if hasattr(env, "set_agent"):
                env.set_agent(agent)
            env.unwrapped.set_action_format()   # auto: a chat agent sets its own at reset
            result = run_episode(env, agent, job.seed, task=job.task_id)
            if getattr(env, "last_episode", None) is not None:
                result["episode"] = env.last_episode.name
            return result
        except Exception as e:
            self.close()   # the env may be in any state: the next job makes a new one
            return {"task_id": job.task_id, "suite": job.suite, "agent": job.agent, "seed": job.seed,
                    "success": False, "reward": 0.0, "steps": 0, "normalized_score": None,
                    "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=8)[-4000:],
                    "wall_s": round(time.perf_counter() - t0, 3)}

    def close(self) -> None:
        env, self.env, self.suite = self.env, None, None
        if env is not None:
            env.close()


# -- worker processes -------------------------------------------------------------------------------------
_RUNNER: EpisodeRunner | None = None


def _init_worker(make_agents: Callable[[], Sequence], record_dir, image_format) -> None:
    global _RUNNER
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle: it stops the pool
    _RUNNER = EpisodeRunner(make_agents(), record_dir, image_format)
    from multiprocessing import util
    util.Finalize(_RUNNER, _RUNNER.close, exitpriority=10)   # the pool's workers end through os._exit


def _run_in_worker(job: Job) -> dict:
    return _RUNNER.run(job)


def run_jobs(jobs: Sequence[Job], make_agents: Callable[[], Sequence], *, workers: int = 1,
             record_dir: str | os.PathLike | None = None, image_format: str = "png",
             on_result: Callable[[dict], None] | None = None, agents: Sequence | None = None) -> list[dict]:
    """Play `jobs`; each result goes to `on_result` as it arrives. `workers` > 1: that many processes, each
    building its agents with `make_agents()` (a picklable callable) and its own envs; 1: here, with `agents`
    (or `make_agents()`)."""
    results: list[dict] = []

    def done(r: dict) -> None:
        results.append(r)
        if on_result is not None:
            on_result(r)

    if workers <= 1 or len(jobs) <= 1:
        runner = EpisodeRunner(agents if agents is not None else make_agents(), record_dir, image_format)
        try:
            for job in jobs:
                done(runner.run(job))
        finally:
            runner.close()
        return results
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=ctx, initializer=_init_worker,
                               initargs=(make_agents, record_dir, image_format))
    try:
        pending = {pool.submit(_run_in_worker, job): job for job in jobs}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                job = pending.pop(f)
                try:
                    done(f.result())
                except Exception as e:    # the worker process itself died (a crash, the OOM killer)
                    done({"task_id": job.task_id, "suite": job.suite, "agent": job.agent, "seed": job.seed,
                          "success": False, "reward": 0.0, "steps": 0, "normalized_score": None,
                          "error": f"the worker process failed: {type(e).__name__}: {e}"})
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results


class Progress:
    """A progress bar on stderr (tqdm): episodes done, success so far, time left."""

    def __init__(self, total: int, earlier: Sequence[dict] = (), enabled: bool = True):
        from tqdm import tqdm
        self.ok = sum(bool(r.get("success")) for r in earlier)
        self.n = len(earlier)
        self.errors = 0
        self.bar = tqdm(total=total, unit="ep", desc="bench", file=sys.stderr, disable=not enabled,
                        dynamic_ncols=True, smoothing=0.1, mininterval=0.5)
        self._postfix()

    def _postfix(self) -> None:
        rate = f"{self.ok}/{self.n} ({100 * self.ok / self.n:.0f}%)" if self.n else "-"
        fields = {"success": rate}
        if self.errors:
            fields["errors"] = self.errors
        self.bar.set_postfix(fields, refresh=False)

    def update(self, r: dict) -> None:
        self.n += 1
        self.ok += bool(r.get("success"))
        self.errors += r.get("error") is not None
        self._postfix()
        self.bar.update(1)

    def write(self, text: str) -> None:
        self.bar.write(text, file=sys.stdout)

    def close(self) -> None:
        self.bar.close()


def write_summaries(records: list[dict], md_path: Path, csv_path: Path, title: str) -> None:
    """The run's summary as Markdown (per agent, per suite, per task, with 95% intervals) and CSV (per task
    and agent)."""
    from .scores import GROUPINGS, summarize, summary_markdown, to_csv
    md_path.write_text(summary_markdown(records, title), encoding="utf-8")
    csv_path.write_text(to_csv(summarize(records, GROUPINGS["task"])), encoding="utf-8")


def run_benchmark(tasks, agents: Sequence, seeds: Sequence[int], *, make_agents: Callable[[], Sequence],
                  out: str | os.PathLike | None = None, record: str | os.PathLike | None = None,
                  workers: int = 1, resume: bool = False, progress: bool = True, verbose: bool = False,
                  image_format: str = "png") -> tuple[list[dict], list[dict]]:
    """Play every episode of tasks x agents x seeds; (all results, the new ones). Results go to `out`
    (JSON lines) or `record`/results.jsonl; with `resume` the episodes already there are skipped and the
    new ones appended. The summary (Markdown, CSV) is written beside the results."""
    results_path = Path(out) if out else (Path(record) / RESULTS if record else None)
    if record is not None:
        Path(record).mkdir(parents=True, exist_ok=True)
    if results_path is not None:
        results_path.parent.mkdir(parents=True, exist_ok=True)
    earlier = read_results(results_path) if (resume and results_path is not None) else []
    if earlier and record is not None:
        # an episode whose trajectory did not end (a crash between its folder and its line) is played again
        from .trajectory import RESULT
        kept = [r for r in earlier if not r.get("episode") or (Path(record) / r["episode"] / RESULT).is_file()]
        if len(kept) < len(earlier):
            results_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
            earlier = kept
    everyone = plan(tasks, agents, seeds)
    done_keys = {key_of(r) for r in earlier}
    jobs = [j for j in everyone if j.key not in done_keys]
    planned = {j.key for j in everyone}
    earlier = [r for r in earlier if key_of(r) in planned]      # the progress bar counts this run's own
    sink = open(results_path, "a" if resume else "w", encoding="utf-8") if results_path is not None else None
    bar = Progress(len(jobs), earlier, enabled=progress)
    if resume and done_keys:
        bar.write(f"resuming: {len(done_keys)} episodes already in {results_path}, {len(jobs)} to play")

    def on_result(r: dict) -> None:
        if sink is not None:
            sink.write(json.dumps(r, ensure_ascii=False) + "\n")
            sink.flush()
        if verbose:
            bar.write(json.dumps(r, ensure_ascii=False))
        bar.update(r)

    try:
        new = run_jobs(jobs, make_agents, workers=workers, record_dir=record, image_format=image_format,
                       on_result=on_result, agents=agents)
    finally:
        bar.close()
        if sink is not None:
            sink.close()
    everything = read_results(results_path) if (resume and results_path is not None) else list(new)
    if results_path is not None:
        stem = results_path.with_suffix("") if results_path.name != RESULTS else results_path.parent / "summary"
        write_summaries(everything, stem.with_suffix(".md"), stem.with_suffix(".csv"),
                        title=f"hybridgym bench: {results_path}")
    return everything, new
