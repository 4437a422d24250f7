import { spawn } from 'node:child_process';
import type { ExecPort, ExecRequest, ExecResult } from '../../src/workspace/exec-port.js';

/**
 * A small test-only ExecPort (bash -c, stdin, timeout with process-group kill, a minimal environment
 * plus extraEnv), recording each request. The product's exec.ts adds the sandbox and env scrubbing.
 */
export function testExec(): ExecPort & { calls: ExecRequest[] } {
  const calls: ExecRequest[] = [];
  const port = (req: ExecRequest): Promise<ExecResult> => {
    calls.push(req);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...(req.extraEnv ?? {}) };
      const child = spawn('bash', ['-c', req.command], { cwd: req.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let output = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-(child.pid ?? 0), 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, req.timeoutMs);
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        output += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        output += d.toString();
      });
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: timedOut ? null : code, output, stdout, stderr, timedOut, cancelled: false, durationMs: Date.now() - started, truncated: false, sandbox: 'none' });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(req.stdin ?? '');
    });
  };
  return Object.assign(port, { calls });
}
