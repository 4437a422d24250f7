/**
 * Images in issues (issue 28): a PNG attached to the issue (GitHub's attachment URL) is fetched with the
 * installation token and sent as one image block in the first user message of the real run (a scripted
 * model records the request); an image on another host stays text; the evidence lists what was sent. A
 * `/agent fix` comment on proofpr's PR (a review follow-up) with a screenshot gets the same.
 * The unit part: magic bytes decide the type, the byte cap and the image count hold, the token never
 * follows a redirect to the storage host.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { payload } from '../../github/payloads.js';
import { fakeWorkspace } from '../../memory/harness.js';
import { fixtureRepo } from '../../e2e/helpers.js';
import { createScriptedModel, text } from '../../../src/model/scripted.js';
import { runTask } from '../../../src/run/run-task.js';
import { fetchIssueImages, imageUrls, isGitHubAttachment, sniffImage } from '../../../src/github/issue-images.js';
import { fakeRunTask, useAppHarness } from './harness.js';

const TOKEN = 'ghs_fakeinstallationtoken000000000000000';
/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201' +
    'a5d1e3c90000000049454e44ae426082',
  'hex',
);
const SHOT = 'https://github.com/user-attachments/assets/1b2c3d4e-aaaa-bbbb-cccc-000000000001';
const ELSEWHERE = 'https://example.com/cat.png';

/** GitHub serving SHOT once as `contentType`; `auth` collects the Authorization header of each request for it. */
function serveShot(contentType: string) {
  const auth: string[] = [];
  const attachment = nock('https://github.com')
    .get(new URL(SHOT).pathname)
    .reply(function () {
      auth.push(String(this.req.headers.authorization));
      return [200, PNG, { 'content-type': contentType }];
    });
  return { auth, attachment };
}

describe('probot app - images in issues and follow-ups', () => {
  const app = useAppHarness();

  it('images - an issue with one attached PNG sends one image block; a non-GitHub image URL stays text', async () => {
    const { auth, attachment } = serveShot('application/octet-stream');
    const repo = fixtureRepo();
    const model = createScriptedModel(() => ({ content: [text('Looked at the screenshot.')] }));
    await app.start({
      github: {
        permissions: { maintainer: { permission: 'write', role_name: 'write' } },
        config:
          'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\nci:\n  wait_min: 0\ngates:\n  max_stop_blocks: 0\n',
      },
      runTask,
      workspace: fakeWorkspace(repo.dir),
      modelFactory: () => model,
    });
    const ev = payload('issue_comment.created', (p) => {
      p.comment.body = '/agent fix';
      p.issue.body = `The chart is cut off:\n\n![shot](${SHOT})\n\nLike this one: ![cat](${ELSEWHERE})`;
    });
    await app.receive('issue_comment', ev);
    await app.done(12, 60_000);

    expect(attachment.isDone()).toBe(true);
    expect(auth).toEqual([`token ${TOKEN}`]);
    const first = model.requests[0]?.messages[0];
    const blocks = Array.isArray(first?.content) ? first.content : [];
    const images = blocks.filter((b) => b.type === 'image');
    expect(images).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } }]);
    // The other image is not fetched and stays in the task's text.
    const system = (model.requests[0]?.system ?? []).map((b) => b.text).join('\n');
    expect(system).toContain(ELSEWHERE);
    const runDir = join(app.h.home, 'runs', app.runs.latest('acme/widgets', 12)?.id ?? '');
    const written = JSON.parse(readFileSync(join(runDir, 'evidence.json'), 'utf8')) as { images?: unknown };
    expect(written.images).toEqual([{ url: SHOT, bytes: PNG.length }]);
    expect(app.gh.unhandled).toEqual([]);
  }, 90_000);

  const BRANCH = 'proofpr/12-parser-drops-the-last-line';

  it('images - a screenshot attached to the `/agent fix` comment on proofpr’s PR is one image block of the follow-up and listed in its evidence', async () => {
    const fake = fakeRunTask();
    await app.start({
      github: {
        permissions: { maintainer: { permission: 'write', role_name: 'write' } },
        config: 'ci:\n  wait_min: 0\n',
        pulls: [{ number: 13, head: BRANCH, headSha: '1'.repeat(40), base: 'main', state: 'open', author: 'proofpr[bot]' }],
        refs: { [BRANCH]: '1'.repeat(40) },
      },
      runTask: fake.runTask,
    });
    const { auth, attachment } = serveShot('image/png');
    const ev = payload('pull_request_review_comment.created', (p) => {
      p.comment.body = `/agent fix the legend still overlaps:\n\n![after](${SHOT})\n\nand ![cat](${ELSEWHERE})`;
    });
    await app.receive('pull_request_review_comment', ev);
    await app.done(13);

    expect(attachment.isDone()).toBe(true);
    expect(auth).toEqual([`token ${TOKEN}`]);
    expect(fake.inputs[0]?.task.images).toEqual([{ url: SHOT, bytes: PNG.length, mediaType: 'image/png', data: PNG.toString('base64') }]);
    expect(fake.inputs[0]?.task.instructions).toContain(ELSEWHERE);
    const runDir = join(app.h.home, 'runs', app.runs.latest('acme/widgets', 13)?.id ?? '');
    const written = JSON.parse(readFileSync(join(runDir, 'evidence.json'), 'utf8')) as { images?: unknown };
    expect(written.images).toEqual([{ url: SHOT, bytes: PNG.length }]);
    expect(app.gh.unhandled).toEqual([]);
  });
});

describe('images - the rules', () => {
  const fetchOf =
    (answers: Record<string, () => Response>, seen: Array<{ url: string; auth?: string }>) =>
    async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      seen.push({ url, ...(init?.headers ? { auth: (init.headers as Record<string, string>).authorization } : {}) });
      const answer = answers[url];
      return answer ? answer() : new Response('missing', { status: 404 });
    };

  it('images - only GitHub attachment URLs (and the GHE host’s) count; Markdown and <img> both', () => {
    expect(imageUrls([`a ![x](${SHOT}) b <img width="200" src="${ELSEWHERE}"> ![y](${SHOT})`])).toEqual([SHOT, ELSEWHERE]);
    expect(isGitHubAttachment(SHOT, 'https://github.com')).toBe(true);
    expect(isGitHubAttachment('https://user-images.githubusercontent.com/1/2.png', 'https://github.com')).toBe(true);
    expect(isGitHubAttachment(ELSEWHERE, 'https://github.com')).toBe(false);
    expect(isGitHubAttachment('https://github.com/acme/widgets/blob/main/a.png', 'https://github.com')).toBe(false);
    expect(isGitHubAttachment('https://ghe.example.test/user-attachments/assets/abc-1', 'https://ghe.example.test')).toBe(true);
    expect(isGitHubAttachment('https://ghe.example.test/storage/user/3/files/abc-1', 'https://ghe.example.test')).toBe(true);
    expect(isGitHubAttachment('https://ghe.example.test/user-attachments/assets/abc-1', 'https://github.com')).toBe(false);
  });

  it('images - magic bytes decide, not the name: PNG, JPEG, GIF, WebP; anything else is left out', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('images - at most N images of at most M bytes; the token goes to GitHub, never to the storage host a redirect names', async () => {
    const a = `${SHOT.slice(0, -1)}2`;
    const b = `${SHOT.slice(0, -1)}3`;
    const c = `${SHOT.slice(0, -1)}4`;
    const signed = 'https://private-user-images.githubusercontent.com/x.png?jwt=signed';
    const seen: Array<{ url: string; auth?: string }> = [];
    const out = await fetchIssueImages([`![a](${a}) ![b](${b}) ![c](${c})`], {
      webUrl: 'https://github.com',
      token: TOKEN,
      limits: { maxImages: 2, maxBytes: 100 },
      fetch: fetchOf(
        {
          [a]: () => new Response(null, { status: 302, headers: { location: signed } }),
          [signed]: () => new Response(PNG),
          [b]: () => new Response(Buffer.concat([PNG, Buffer.alloc(200)])),
        },
        seen,
      ) as typeof fetch,
    });
    expect(out.images.map((i) => i.url)).toEqual([a]);
    expect(out.skipped).toEqual([
      { url: b, why: 'larger than 100 bytes' },
      { url: c, why: 'GitHub answered 404' },
    ]);
    expect(seen.find((s) => s.url === a)?.auth).toBe(`token ${TOKEN}`);
    expect(seen.find((s) => s.url === signed)?.auth).toBeUndefined();

    const capped = await fetchIssueImages([`![a](${a}) ![b](${b}) ![c](${c})`], {
      webUrl: 'https://github.com',
      token: TOKEN,
      limits: { maxImages: 1, maxBytes: 1000 },
      fetch: fetchOf({ [a]: () => new Response(PNG) }, []) as typeof fetch,
    });
    expect(capped.images).toHaveLength(1);
    expect(capped.skipped.map((s) => s.why)).toEqual(['only the first 1 images are sent', 'only the first 1 images are sent']);
  });
});
