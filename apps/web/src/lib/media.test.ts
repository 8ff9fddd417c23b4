import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASIC_CAMERA, acquireCamera, mediaErrorMessage } from './media';

const domError = (name: string, message = `${name} happened`) => new DOMException(message, name);

function stubMediaDevices() {
  const devices = { getUserMedia: vi.fn<(constraints?: MediaStreamConstraints) => Promise<MediaStream>>() };
  Object.defineProperty(navigator, 'mediaDevices', { value: devices, configurable: true });
  return devices;
}

const removeMediaDevices = () => Reflect.deleteProperty(navigator, 'mediaDevices');

describe('acquireCamera', () => {
  let devices: ReturnType<typeof stubMediaDevices>;
  beforeEach(() => {
    vi.useFakeTimers();
    devices = stubMediaDevices();
  });
  afterEach(() => {
    vi.useRealTimers();
    removeMediaDevices();
  });

  it('tries three times, waiting 100 ms then 500 ms, and answers with the stream that came', async () => {
    const camera = { id: 'camera' } as MediaStream;
    devices.getUserMedia
      .mockRejectedValueOnce(domError('NotReadableError'))
      .mockRejectedValueOnce(domError('AbortError'))
      .mockResolvedValueOnce(camera);

    const acquired = acquireCamera();
    await vi.advanceTimersByTimeAsync(0);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(3);

    await expect(acquired).resolves.toBe(camera);
    expect(devices.getUserMedia).toHaveBeenCalledWith(BASIC_CAMERA);
  });

  it('gives up after the third attempt with its error', async () => {
    devices.getUserMedia.mockRejectedValue(domError('NotReadableError', 'busy'));

    const acquired = acquireCamera();
    const outcome = expect(acquired).rejects.toMatchObject({ name: 'NotReadableError' });
    await vi.advanceTimersByTimeAsync(600);
    await outcome;
    expect(devices.getUserMedia).toHaveBeenCalledTimes(3);
  });

  it('does not ask again after the user refused', async () => {
    devices.getUserMedia.mockRejectedValue(domError('NotAllowedError'));

    await expect(acquireCamera()).rejects.toMatchObject({ name: 'NotAllowedError' });
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('explains that capture needs a secure page where the browser offers none', async () => {
    removeMediaDevices();
    await expect(acquireCamera()).rejects.toThrow('Camera and screen need a secure (https) connection');
  });
});

describe('mediaErrorMessage', () => {
  it.each([
    ['NotAllowedError', 'Permission denied to access camera/screen'],
    ['NotFoundError', 'Camera or screen not found'],
    ['NotReadableError', 'Camera is being used by another application'],
    ['OverconstrainedError', 'Camera does not meet the required constraints'],
  ])('words %s as the spec does', (name, text) => {
    expect(mediaErrorMessage(domError(name))).toBe(text);
  });

  it('words a TypeError and any other error', () => {
    expect(mediaErrorMessage(new TypeError('bad constraints'))).toBe('Camera type error');
    expect(mediaErrorMessage(domError('AbortError', 'Timeout starting video source'))).toBe(
      'Camera access error: Timeout starting video source',
    );
  });
});
