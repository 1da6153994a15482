# Runs many command lines through the reference Python tool set in one
# interpreter (test/reference/harness.ts): each script is imported once and
# its main() called per case with that case's cwd, argv, stdout and stderr,
# as `python3 scripts/<name>.py ...` would run it. Starting python3 per case
# costs ~30 ms; this costs well under 1 ms per case. One driver serves a
# whole test file: it answers each line as it comes, until stdin ends.
#
# stdin: one JSON object a line: {"cwd": dir, "script": name, "args": [...]};
# argument strings carry a byte that is not UTF-8 as Python's argv does
# (surrogateescape, a lone surrogate U+DC80..U+DCFF in the ASCII JSON).
# stdout: one JSON line per case: {"rc", "stdout", "stderr"}, the streams
# decoded from their bytes with surrogateescape.
import importlib
import io
import json
import os
import sys
import traceback

SCRIPTS = sys.argv[1]
sys.path.insert(0, SCRIPTS)
NAMES = ("init_collaboration", "append_event", "next_action", "validate_collaboration", "wait_for_turn")
MODULES = {name: importlib.import_module(name) for name in NAMES}
REAL_STDOUT = sys.stdout


def call_main(name, args):
    """main() of a script with sys.argv set; its exit status as the interpreter would return it."""
    saved = sys.argv
    sys.argv = [os.path.join(SCRIPTS, name + ".py"), *args]
    try:
        return exit_status(MODULES[name].main())
    except SystemExit as exc:
        return exit_status(exc.code)
    finally:
        sys.argv = saved


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def next_action_in_process(folder, participant):
    # wait_for_turn runs next_action.py as a child writing to the same stdout.
    sys.stdout.flush()
    call_main("next_action", ["--folder", str(folder), "--participant", participant])


MODULES["wait_for_turn"].print_next_action = next_action_in_process


def run_case(case):
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape", newline="\n")
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", newline="\n")
    os.chdir(case["cwd"])
    try:
        rc = call_main(case["script"], case["args"])
    except Exception:  # what the interpreter prints for an uncaught exception
        traceback.print_exc()
        rc = 1
    streams = (sys.stdout, sys.stderr)
    sys.stdout, sys.stderr = REAL_STDOUT, sys.__stderr__
    for stream in streams:
        stream.flush()
        stream.detach()  # else closing the wrapper (when collected) closes the buffer
    return {"rc": rc, "stdout": decode(out), "stderr": decode(err)}


def decode(buffer):
    return buffer.getvalue().decode("utf-8", "surrogateescape")


for line in iter(sys.stdin.buffer.readline, b""):
    if line.strip():
        REAL_STDOUT.write(json.dumps(run_case(json.loads(line.decode("ascii")))) + "\n")
        REAL_STDOUT.flush()
