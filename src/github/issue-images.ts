/**
 * Screenshots attached to an issue or to the triggering comment (issue 28): only GitHub's own attachment
 * URLs (`<web>/user-attachments/assets/…`, `https://user-images.githubusercontent.com/…`, a GitHub
 * Enterprise host's `/user-attachments/assets/…` and `/storage/user/…`), fetched with the installation
 * token (sent to the GitHub host only, never to a redirect's storage host), at most `maxImages` of at most
 * `maxBytes` each, and kept only when their first bytes say PNG, JPEG, GIF or WebP (never the extension or
 * the server's content type). Any other image URL stays text in the task.
 */

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface IssueImage {
  url: string;
  bytes: number;
  mediaType: ImageMediaType;
  /** Base64 of the file. */
  data: string;
}

export interface ImageLimits {
  maxImages: number;
  maxBytes: number;
}

export const IMAGE_LIMITS: ImageLimits = { maxImages: 4, maxBytes: 5 * 1024 * 1024 };

type Fetch = typeof fetch;

/** Image URLs written as Markdown images or `<img src>` in `texts`, in order, without repeats. */
export function imageUrls(texts: string[]): string[] {
  const found: string[] = [];
  const re = /!\[[^\]]*\]\(\s*<?(https?:\/\/[^\s)>]+)>?[^)]*\)|<img\b[^>]*?\bsrc\s*=\s*["'](https?:\/\/[^"']+)["']/gi;
  for (const t of texts) for (const m of t.matchAll(re)) found.push((m[1] ?? m[2]) as string);
  return [...new Set(found)];
}

/** Whether `url` is one of GitHub's attachment URLs for this GitHub (`webUrl`: https://github.com or the GHE root). */
export function isGitHubAttachment(url: string, webUrl: string): boolean {
  let u: URL;
  let web: URL;
  try {
    u = new URL(url);
    web = new URL(webUrl);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' && u.protocol !== web.protocol) return false;
  if (u.username || u.password) return false;
  if (u.host === 'user-images.githubusercontent.com') return u.protocol === 'https:';
  if (u.host !== web.host) return false;
  return (
    /^\/user-attachments\/assets\/[\w-]+$/.test(u.pathname) ||
    (web.host !== 'github.com' && /^\/storage\/user\/\d+\/files\/[\w-]+$/.test(u.pathname))
  );
}

/** The media type the first bytes say, or undefined. */
export function sniffImage(b: Uint8Array): ImageMediaType | undefined {
  const at = (i: number, bytes: number[]): boolean => bytes.every((x, k) => b[i + k] === x);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'image/gif';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return undefined;
}

/** The body, or why not: over `maxBytes` (by Content-Length or while reading) or not a 200. */
async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array | string> {
  if (res.status !== 200) return `GitHub answered ${res.status}`;
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) return `larger than ${maxBytes} bytes`;
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    total += chunk.value.length;
    if (total > maxBytes) {
      await reader?.cancel();
      return `larger than ${maxBytes} bytes`;
    }
    parts.push(chunk.value);
  }
  return Buffer.concat(parts);
}

/** GET with the token to the GitHub host only; redirects (to signed storage URLs) followed by hand, without it. */
async function download(url: string, token: string, webUrl: string, maxBytes: number, fetchFn: Fetch): Promise<Uint8Array | string> {
  let target = url;
  for (let hop = 0; hop < 4; hop++) {
    const auth = isGitHubAttachment(target, webUrl) ? { authorization: `token ${token}` } : undefined;
    const res = await fetchFn(target, { redirect: 'manual', ...(auth ? { headers: auth } : {}), signal: AbortSignal.timeout(30_000) });
    const next = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (!next) return readCapped(res, maxBytes);
    await res.body?.cancel();
    target = new URL(next, target).href;
    if (!target.startsWith('https:')) return 'redirected to a non-https address';
  }
  return 'too many redirects';
}

export interface FetchedImages {
  images: IssueImage[];
  /** Attachment URLs not given to the model, and why (over the limits, not an image, a failed download). */
  skipped: Array<{ url: string; why: string }>;
}

/** The attached images of `texts`, within the limits; see the file comment. */
export async function fetchIssueImages(
  texts: string[],
  opts: { webUrl: string; token: string; limits?: ImageLimits; fetch?: Fetch },
): Promise<FetchedImages> {
  const limits = opts.limits ?? IMAGE_LIMITS;
  const out: FetchedImages = { images: [], skipped: [] };
  for (const url of imageUrls(texts).filter((u) => isGitHubAttachment(u, opts.webUrl))) {
    if (out.images.length >= limits.maxImages) {
      out.skipped.push({ url, why: `only the first ${limits.maxImages} images are sent` });
      continue;
    }
    const body = await download(url, opts.token, opts.webUrl, limits.maxBytes, opts.fetch ?? fetch).catch(
      (e: Error) => `download failed: ${e.message}`,
    );
    const mediaType = typeof body === 'string' ? undefined : sniffImage(body);
    if (typeof body === 'string' || !mediaType) {
      out.skipped.push({ url, why: typeof body === 'string' ? body : 'not a PNG, JPEG, GIF or WebP file' });
      continue;
    }
    out.images.push({ url, bytes: body.length, mediaType, data: Buffer.from(body).toString('base64') });
  }
  return out;
}
