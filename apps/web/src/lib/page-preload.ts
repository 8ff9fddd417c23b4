/** The screens another screen may start loading before they are opened. */
type PageName = 'stream';

const loaders = new Map<PageName, () => Promise<unknown>>();

/**
 * The router says how each such screen loads; a feature asks for one by name, so it never imports
 * another feature (decision 0029). The event page and My Tickets ask for the stream's screen for a
 * ticket holder: a fan who opens the show late then waits for no chunk.
 */
export function registerPageLoader(name: PageName, load: () => Promise<unknown>): void {
  loaders.set(name, load);
}

/**
 * Starts loading the screen's code, once (the browser keeps the module); resolves when it is in, or
 * failed to come (a failure waits for the real visit).
 */
export async function preloadPage(name: PageName): Promise<void> {
  await loaders
    .get(name)?.()
    .catch(() => undefined);
}
