/**
 * A real browser for the OAuth tests: Debian's chromium (/usr/bin/chromium, which scripts/test-all.sh
 * installs), headless, driven by playwright-core. When it is missing `launchBrowser` throws: the tests that
 * need it fail, they never skip.
 *
 * `approveInBrowser` plays the user on oidc-provider's development pages (test/helpers/oidc-provider.ts):
 * it opens an authorization URL, signs in (any login, any password), approves the consent page, and
 * resolves with the URL the browser is finally sent to on another origin: the client's loopback redirect
 * URI with `code`/`state`/`iss` (or `error`). The redirect URL is known as the navigation starts, so
 * nothing needs to answer on it; but the browser does go on to request it (a route does not catch a
 * redirect), so a live callback there receives the code too. A device flow's `verification_uri_complete` works too: the code is confirmed, and
 * the call resolves with the success page's URL.
 *
 * The pages run offline: every request to a non-loopback host (oidc-provider's pages @import Google fonts)
 * is aborted, so nothing waits on the network.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export type { Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Launches headless chromium; close it (`browser.close()`) in `after`/`finally`. */
export async function launchBrowser(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `${executablePath} not found: the OAuth browser tests need Debian's chromium ` +
        '(apt-get install -y --no-install-recommends chromium; scripts/test-all.sh installs it)',
    );
  }
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export interface ApproveOptions {
  /** The login typed on the sign-in page: the token's `sub`. Default `user`. */
  login?: string;
  /** Give up after this many ms (default 20000). */
  timeoutMs?: number;
}

/** The page's visible text, shortened, for error messages. */
async function textOf(page: Page): Promise<string> {
  const text = await page
    .locator('body')
    .textContent()
    .catch(() => null);
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 400);
}

/**
 * Opens `authorizationUrl` in a fresh context, signs in as `login`, approves, and resolves with the URL of
 * the first navigation that leaves the authorization server's origin (the redirect URI), or, for a device
 * flow, the success page's URL.
 */
export async function approveInBrowser(
  browser: Browser,
  authorizationUrl: string | URL,
  options: ApproveOptions = {},
): Promise<URL> {
  const start = new URL(authorizationUrl);
  const login = options.login ?? 'user';
  const context = await browser.newContext();
  try {
    await context.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      return LOOPBACK.has(hostname) ? route.continue() : route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs ?? 20_000);

    let leave: (url: URL) => void = () => {};
    const redirected = new Promise<URL>((resolve) => {
      leave = resolve;
    });
    page.on('request', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      const url = new URL(request.url());
      if (url.origin !== start.origin) leave(url);
    });
    // Runs `act`, then waits for the next document or the redirect, whichever comes first. A navigation to
    // a redirect URI nobody answers fails `act`; the redirect was seen by then, so it wins the race.
    const step = async (act: () => Promise<unknown>): Promise<URL | undefined> => {
      const loaded = page.waitForEvent('load').then(
        () => undefined,
        () => undefined,
      );
      const acted = act().then(
        () => loaded,
        async (error: unknown) => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          throw error;
        },
      );
      return Promise.race([redirected, acted]);
    };

    let done = await step(() => page.goto(start.href));
    for (let i = 0; done === undefined && i < 10; i++) {
      if ((await page.title()) === 'Sign-in Success') return new URL(page.url());
      if ((await page.locator('input[name="login"]').count()) > 0) {
        await page.fill('input[name="login"]', login);
        await page.fill('input[name="password"]', 'any-password');
        done = await step(() => page.click('button[type="submit"]'));
      } else if ((await page.locator('input[name="prompt"][value="consent"]').count()) > 0) {
        done = await step(() => page.click('button[type="submit"]'));
      } else if ((await page.locator('[id="op.deviceConfirmForm"]').count()) > 0) {
        done = await step(() => page.click('button[form="op.deviceConfirmForm"]'));
      } else {
        throw new Error(`approveInBrowser: unexpected page at ${page.url()}: ${await textOf(page)}`);
      }
    }
    if (done === undefined) throw new Error(`approveInBrowser: no redirect after 10 pages (${page.url()})`);
    return done;
  } finally {
    await context.close();
  }
}
