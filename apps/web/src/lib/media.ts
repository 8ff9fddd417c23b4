/** Camera and screen capture for the broadcaster (spec §4 "Stream, creator side", §9). */

/** The first request asks for any camera and microphone: the quickest to be granted. */
export const BASIC_CAMERA: MediaStreamConstraints = { video: true, audio: true };

/** What the camera is re-acquired with once it works (spec §9). */
export const HIGH_QUALITY_CAMERA: MediaStreamConstraints = {
  video: { width: { ideal: 1280 }, height: { ideal: 720 } },
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

/** The camera and microphone the creator picked; null: the browser's default. */
export type DeviceChoice = { cameraId: string | null; microphoneId: string | null };

export const DEFAULT_DEVICES: DeviceChoice = { cameraId: null, microphoneId: null };

/** `constraints` narrowed to the chosen devices. */
export function onDevices(constraints: MediaStreamConstraints, { cameraId, microphoneId }: DeviceChoice) {
  const pick = (base: MediaStreamConstraints['video'], deviceId: string | null) =>
    deviceId ? { ...(typeof base === 'object' ? base : {}), deviceId: { exact: deviceId } } : base;
  return { video: pick(constraints.video, cameraId), audio: pick(constraints.audio, microphoneId) };
}

/** Waits between camera attempts (spec §9): three attempts in all. */
const CAMERA_RETRY_WAITS_MS: readonly number[] = [100, 500];

/** Errors that another attempt cannot change: asking again would only repeat the refusal. */
const FINAL_ERRORS = new Set(['NotAllowedError', 'SecurityError']);

function mediaDevices(): MediaDevices {
  // Browsers leave mediaDevices undefined outside a secure context (plain http on a public host).
  if (!navigator.mediaDevices) throw new Error('Camera and screen need a secure (https) connection');
  return navigator.mediaDevices;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads DOMException-likes by shape: not every DOMException (nor OverconstrainedError) is an Error. */
function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
}

function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : String(error);
}

/**
 * Opens the camera and microphone. A device that is still being released (a previous stream, another
 * tab) often fails once and works a moment later, so a failure is retried after each of `waits`.
 */
export async function acquireCamera(
  constraints: MediaStreamConstraints = BASIC_CAMERA,
  waits: readonly number[] = CAMERA_RETRY_WAITS_MS,
): Promise<MediaStream> {
  const devices = mediaDevices();
  for (let attempt = 0; ; attempt++) {
    try {
      return await devices.getUserMedia(constraints);
    } catch (error) {
      const pause = waits[attempt];
      if (pause === undefined || FINAL_ERRORS.has(errorName(error))) throw error;
      await wait(pause);
    }
  }
}

/** Asks the user for a screen, window or tab; each attempt is a prompt, so there is only one. */
export function acquireScreen(): Promise<MediaStream> {
  return mediaDevices().getDisplayMedia({ video: true, audio: false });
}

/** The toast for a failed camera or screen request (spec §8). */
export function mediaErrorMessage(error: unknown): string {
  switch (errorName(error)) {
    case 'NotAllowedError':
      return 'Permission denied to access camera/screen';
    case 'NotFoundError':
      return 'Camera or screen not found';
    case 'NotReadableError':
      return 'Camera is being used by another application';
    case 'OverconstrainedError':
      return 'Camera does not meet the required constraints';
    case 'TypeError':
      return 'Camera type error';
    default:
      return `Camera access error: ${errorText(error)}`;
  }
}

/** Ends every track of the stream, which turns the camera light off and frees the device. */
export function stopTracks(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}
