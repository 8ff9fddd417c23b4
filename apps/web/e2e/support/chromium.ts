import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

/** Debian's Chromium, headless; `media` adds the fake camera, microphone and screen. */
export function launchBrowser(options: { media?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.media ? FAKE_MEDIA_ARGS : [])],
  });
}

export type StudioAndAudience = { studio: Browser; audience: Browser; close: () => Promise<void> };

/** Two browsers, as two people on two machines: the creator's has the fake camera and screen. */
export async function launchStudioAndAudience(): Promise<StudioAndAudience> {
  const [studio, audience] = await Promise.all([launchBrowser({ media: true }), launchBrowser()]);
  return {
    studio,
    audience,
    close: async () => {
      await Promise.all([studio.close(), audience.close()]);
    },
  };
}
