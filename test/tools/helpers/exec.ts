import { spawn } from 'node:child_process';
import type { ExecPort, ExecResult } from '../../../src/workspace/exec-port.js';

/** Test-only ExecPort: `bash -c` in its own process group, killed as a group on timeout or abort. */
export const testExec: ExecPort = (req) =>
  new Promise<ExecResult>((resolve) => {
    const started = Date.now();
    const child = spawn('bash', ['-c', req.command], {
      cwd: req.cwd,
      detached: true,
      env: { ...process.env, ...req.extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let cancelled = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, req.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    req.signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      output += d.toString();
    });
    child.stdin.on('error', () => undefined); // EPIPE when the command exits before reading stdin
    child.stdin.end(req.stdin ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: code,
        output,
        stdout,
        stderr,
        timedOut,
        cancelled,
        durationMs: Date.now() - started,
        truncated: false,
        sandbox: 'none',
      });
    });
  });
