import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGH_QUALITY_CAMERA } from '../../../lib/media';
import {
  domError,
  fakeCapture,
  removeMediaDevices,
  stubMediaDevices,
  videoTrackOf,
} from '../testing/fake-media';
import { BroadcastMedia, CAMERA_UPGRADE_DELAY_MS, layoutOf, pictureOf } from './broadcast-media';

let devices: ReturnType<typeof stubMediaDevices>;
beforeEach(() => {
  vi.useFakeTimers();
  devices = stubMediaDevices();
});
afterEach(() => {
  vi.useRealTimers();
  removeMediaDevices();
});

describe('layoutOf', () => {
  const camera = fakeCapture('camera');
  const screen = fakeCapture('screen', { audio: false });

  it('sends the camera as the main picture, with its sound', () => {
    expect(layoutOf({ camera, screen: null })).toEqual({
      main: camera.getVideoTracks()[0],
      overlay: null,
      audio: camera.getAudioTracks()[0],
    });
  });

  it('sends the screen as the main picture and the camera as its overlay', () => {
    expect(layoutOf({ camera, screen })).toEqual({
      main: screen.getVideoTracks()[0],
      overlay: camera.getVideoTracks()[0],
      audio: camera.getAudioTracks()[0],
    });
    expect(pictureOf({ camera, screen })).toEqual({ main: screen, overlay: camera });
  });

  it('sends a screen alone without overlay or sound', () => {
    expect(layoutOf({ camera: null, screen })).toEqual({
      main: screen.getVideoTracks()[0],
      overlay: null,
      audio: null,
    });
  });
});

describe('BroadcastMedia', () => {
  it('puts the camera back as the main picture when the screen share ends', async () => {
    const camera = fakeCapture('camera');
    const screen = fakeCapture('screen', { audio: false });
    devices.getUserMedia.mockResolvedValueOnce(camera);
    devices.getDisplayMedia.mockResolvedValueOnce(screen);
    const media = new BroadcastMedia();
    const changes = vi.fn();
    media.subscribe(changes);

    await media.startCamera();
    await media.startScreen();
    expect(pictureOf(media.getSnapshot())).toEqual({ main: screen, overlay: camera });

    videoTrackOf(screen)?.end();
    expect(pictureOf(media.getSnapshot())).toEqual({ main: camera, overlay: null });
    expect(changes.mock.calls).toEqual([['camera'], ['screen'], ['screen']]);
    expect(videoTrackOf(screen)?.readyState).toBe('ended');
  });

  it('re-acquires the camera in high quality a second after first use and stops the first capture', async () => {
    const first = fakeCapture('first');
    const better = fakeCapture('better');
    devices.getUserMedia.mockResolvedValueOnce(first).mockResolvedValueOnce(better);
    const media = new BroadcastMedia();

    await media.startCamera();
    await vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS - 1);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);

    expect(devices.getUserMedia).toHaveBeenLastCalledWith(HIGH_QUALITY_CAMERA);
    expect(media.getSnapshot().camera).toBe(better);
    expect(videoTrackOf(first)?.stop).toHaveBeenCalled();
  });

  it('keeps the first camera picture when the high-quality one is refused', async () => {
    const first = fakeCapture('first');
    devices.getUserMedia.mockResolvedValueOnce(first).mockRejectedValueOnce(domError('NotReadableError'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const media = new BroadcastMedia();

    await media.startCamera();
    await vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS);

    expect(devices.getUserMedia).toHaveBeenCalledTimes(2);
    expect(media.getSnapshot().camera).toBe(first);
    expect(videoTrackOf(first)?.stop).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalled();
  });

  it('stops a capture granted after the page let everything go', async () => {
    const camera = fakeCapture('camera');
    let grant: (stream: MediaStream) => void = () => undefined;
    devices.getUserMedia.mockReturnValueOnce(new Promise((resolve) => (grant = resolve)));
    const media = new BroadcastMedia();

    const starting = media.startCamera();
    media.release();
    grant(camera);
    await starting;

    expect(media.getSnapshot().camera).toBeNull();
    expect(videoTrackOf(camera)?.stop).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('releases every capture', async () => {
    const camera = fakeCapture('camera');
    const screen = fakeCapture('screen', { audio: false });
    devices.getUserMedia.mockResolvedValueOnce(camera);
    devices.getDisplayMedia.mockResolvedValueOnce(screen);
    const media = new BroadcastMedia();
    await media.startCamera();
    await media.startScreen();

    media.release();

    expect(media.getSnapshot()).toEqual({ camera: null, screen: null });
    for (const track of [...camera.getTracks(), ...screen.getTracks()]) expect(track.stop).toHaveBeenCalled();
  });
});
