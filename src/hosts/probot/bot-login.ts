/**
 * The App's bot user, from GitHub's own answer: `GET /app` (as the App, with its JWT) gives the slug, and
 * the bot's login is `<slug>[bot]` on github.com and GitHub Enterprise alike. Asked once per process; a
 * failure is not cached, so the next event asks again.
 */
import type { Probot } from 'probot';

type AppAuth = () => Promise<{ request(route: string): Promise<{ data: unknown }> }>;

export function appBotLogin(auth: AppAuth): () => Promise<string | undefined> {
  let cached: Promise<string | undefined> | undefined;
  return () => {
    cached ??= (async () => {
      const octokit = await auth();
      const { data } = await octokit.request('GET /app');
      const slug = (data as { slug?: unknown } | null)?.slug;
      if (typeof slug !== 'string' || slug === '') throw new Error('GET /app answered without a slug');
      return `${slug}[bot]`;
    })().catch((e: unknown) => {
      cached = undefined;
      throw e;
    });
    return cached;
  };
}

/** The bot login of the App Probot runs as. */
export function probotBotLogin(app: Pick<Probot, 'auth'>): () => Promise<string | undefined> {
  return appBotLogin(() => app.auth() as unknown as ReturnType<AppAuth>);
}
