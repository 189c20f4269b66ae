/**
 * What grading asks of a Python sandbox, and what it gets back: the environment-neutral contract between
 * the graders here and the sandboxes outside core (a Node worker thread, a browser web worker).
 */

/** One program run: its source and what it reads on stdin. */
export interface PythonJob {
  code: string;
  stdin?: string;
  /** Wall-clock limit of this run; past it the sandbox is killed and the run is a 'timeout'. */
  timeoutMs: number;
}

/**
 * How a run ended: 'ok' ran to its end or to sys.exit (see exitCode); 'exception' raised (a syntax error
 * included); 'timeout' was killed at its time limit; 'memory' hit the memory limit; 'crash' took the
 * sandbox down or could not start it.
 */
type PythonStatus = 'ok' | 'exception' | 'timeout' | 'memory' | 'crash';

interface PythonException {
  /** The exception's class name: `AssertionError`, `SyntaxError`, ... */
  type: string;
  message: string;
  /** Python's traceback, over the program's own lines only. */
  traceback: string;
  /** The program's source line where it was raised, when it was raised in the program. */
  line?: string;
}

export interface PythonRun {
  status: PythonStatus;
  stdout: string;
  stderr: string;
  /** sys.exit's status; 0 when the program ran off its end. */
  exitCode: number;
  /** The program ended by raising SystemExit (sys.exit, exit, quit), whatever its status. */
  systemExit?: boolean;
  exception?: PythonException;
  /** For 'timeout', 'memory' and 'crash': what happened, in words. */
  error?: string;
}

/** Runs Python programs under limits; never rejects for what the program does, only reports it. */
export interface CodeRunner {
  run(job: PythonJob): Promise<PythonRun>;
  /** Stops its sandboxes; a later run starts a fresh one. */
  close(): Promise<void>;
}
