"""A pool's workers forked from a server that imported the kit once, not each an interpreter of its own that
imports it again (multiprocessing's "spawn": ~0.16 s of CPU a worker, half of it LibCST's import for the proofs).

The server is multiprocessing's forkserver, an instance of this module's own (not the global one of
multiprocessing.forkserver, which anything else in the grading process may start), started by the pool and
ended with it (`Server`):
- it is a fresh interpreter the grading process execs (`python -c ...`, as spawn's workers are): nothing of the
  grading process's memory is in it, and only two descriptors are passed to it (the socket it listens on, in a
  scratch folder of the kit's, mode 0700, and the read end of a pipe that tells it the pool is gone); its
  environment is the grading process's when the pool starts, as a spawned worker's is;
- it imports PRELOAD (modules only: no submission, no sandbox level probed, no zygote started) and forks a worker
  for each the pool starts; the worker then unpickles its arguments and runs the pool's initializer exactly as a
  spawned one does (batch/worker.start_worker). What the workers share with each other is the server's imported
  modules, copy-on-write (`random` reseeds itself in a forked child; each worker warms its own sandbox level);
  what they share with the grading process is what a spawned worker shares: their arguments and the pool's pipes;
- it dies with the thread that started it (runner/parent_death.py), and its workers with it (their `parent` is
  the server's pid: worker.start_worker); the student's code still runs only in the workers' sandboxed children.
AUTOGRADER_WORKER_START=spawn starts the workers as before (to measure, or where a forkserver can't run).
"""
from __future__ import annotations

import io
import os
import signal
import sys
from multiprocessing import context, forkserver, popen_forkserver, process, reduction, resource_tracker
from multiprocessing import spawn, util

from autograder import scratch

ENV = "AUTOGRADER_WORKER_START"
# what every worker imports: the kit's grading, its sandbox, and LibCST with the repairs (a worker that proves a
# named mistake needs them: diagnosis/repair/apply.py)
PRELOAD = ["autograder.batch.worker", "autograder.grading", "autograder.runner", "autograder.diagnosis.repair.apply"]


def wanted() -> bool:
    """Not where PR_SET_PDEATHSIG is not Linux's (the workers would outlive a killed grader) or asked not to."""
    return sys.platform == "linux" and reduction.HAVE_SEND_HANDLE and os.environ.get(ENV, "").strip() != "spawn"


def started(early: Server | None = None) -> tuple[Server | None, int]:
    """A pool's running server and its pid; (None, this process's pid) where the workers are spawned instead: not
    wanted, or a server that could not be started (no folder for its socket). early: one started already, as the
    command did (early_server.py)."""
    if early is not None:
        return early, early._forkserver_pid
    if wanted():
        server = Server()
        try:
            return server, server.start()
        except OSError:
            pass
    return None, os.getpid()


class Server(forkserver.ForkServer):
    """One pool's forkserver: `start` (in the thread that runs the pool: the server dies when it ends), `stop`."""

    def start(self) -> int:
        """The server's pid, once it listens."""
        self._preload_modules = list(PRELOAD)
        with self._lock:
            resource_tracker.ensure_running()
            data = {k: v for k, v in spawn.get_preparation_data("ignore").items() if k == "sys_path"}
            with socket_listening() as listening:
                listener = listening.listener
                alive_r, alive_w = os.pipe()
                try:
                    cmd = (f"from autograder.batch.fork_server import serve; serve({listener.fileno()}, {alive_r}, "
                           f"{self._preload_modules!r}, {os.getpid()}, **{data!r})")
                    exe = spawn.get_executable()
                    pid = util.spawnv_passfds(exe, [exe, *util._args_from_interpreter_flags(), "-c", cmd],
                                              [listener.fileno(), alive_r])
                except BaseException:
                    os.close(alive_w)
                    scratch.remove(listening.folder, listening.held)
                    raise
                finally:
                    os.close(alive_r)
                self._forkserver_address = listener.getsockname()
                self._forkserver_alive_fd = alive_w
                self._forkserver_pid = pid
                self._folder = (listening.folder, listening.held)
        return pid

    def ensure_running(self) -> None:
        """Started by `start` only: a server that died is not started again (its workers died with it, and the
        pool breaks: batch/pool.py's suspects)."""
        if self._forkserver_pid is None:
            raise OSError("the pool's fork server is not running")

    def stop(self) -> None:
        """The server ended (its workers with it, where one is left: they die with it) and its socket removed."""
        with self._lock:
            pid, alive = self._forkserver_pid, self._forkserver_alive_fd
            if pid is None:
                return
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            os.close(alive)
            scratch.remove(*self._folder)
            self._forkserver_pid = self._forkserver_alive_fd = self._forkserver_address = None


class socket_listening:
    """A listening Unix socket in a folder of the kit's own (scratch.py: mode 0700, in memory where it can be,
    else the temporary folder; swept by the next run where this one is killed), the socket's mode 0600. Never in
    the abstract namespace: any process of the network namespace, whatever its user, could connect there (a
    child at the uid level) and have the server fork it a process. OSError where the path is too long for a
    socket (107 bytes: a long TMPDIR): the pool's workers are then spawned."""

    def __enter__(self):
        import socket

        self.folder, self.held = scratch.make("autograder-forkserver-", where=scratch.memory())
        self.listener = socket.socket(socket.AF_UNIX)
        try:
            self.listener.bind(os.path.join(self.folder, "server"))
            os.chmod(self.listener.getsockname(), 0o600)
            self.listener.listen()
        except BaseException:
            self.listener.close()
            scratch.remove(self.folder, self.held)
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.listener.close()  # the server has its own copy; the folder stays until the server stops


def serve(listener_fd: int, alive_r: int, preload: list[str], parent: int, **kwargs) -> None:
    """The server's main: dies with the grading thread that started it (and at once where that is gone already),
    then multiprocessing.forkserver's."""
    import gc
    import importlib

    from autograder.runner.parent_death import dier

    dier(parent)()
    for name in preload:  # imported here (forkserver.main then finds them), and kept out of every collection:
        try:              # a worker's full collection walks only what it made itself (~20 ms less each)
            importlib.import_module(name)
        except ImportError:
            pass
    gc.freeze()
    forkserver.main(listener_fd, alive_r, preload, **kwargs)


# -- the context a pool is given: its Process started by the pool's server ------------------------------------
_SERVER: list[Server] = []  # the running pool's server (one pool at a time in a grading process: batch/pool.py)


class _Popen(popen_forkserver.Popen):
    def _launch(self, process_obj) -> None:
        """popen_forkserver's, through the pool's server instead of the global one."""
        prep_data = spawn.get_preparation_data(process_obj._name)
        buf = io.BytesIO()
        context.set_spawning_popen(self)
        try:
            reduction.dump(prep_data, buf)
            reduction.dump(process_obj, buf)
        finally:
            context.set_spawning_popen(None)
        self.sentinel, w = _SERVER[0].connect_to_new_process(self._fds)
        _parent_w = os.dup(w)
        self.finalizer = util.Finalize(self, util.close_fds, (_parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class _Process(process.BaseProcess):
    _start_method = "forkserver"

    @staticmethod
    def _Popen(process_obj):
        return _Popen(process_obj)


class Context(context.ForkServerContext):
    """multiprocessing's forkserver context, its processes forked by `server` (set as the running one)."""
    Process = _Process

    def __init__(self, server: Server) -> None:
        super().__init__()
        _SERVER[:] = [server]

