import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGH_QUALITY_CAMERA } from '../../../lib/media';
import {
  domError,
  fakeCapture,
  type FakeTrack,
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

  it('sends no overlay while the camera is off, and keeps its black picture as the main one', () => {
    expect(layoutOf({ camera, screen, isCameraOff: true })).toEqual({
      main: screen.getVideoTracks()[0],
      overlay: null,
      audio: camera.getAudioTracks()[0],
    });
    expect(pictureOf({ camera, screen, isCameraOff: true })).toEqual({ main: screen, overlay: null });
    expect(pictureOf({ camera, screen: null, isCameraOff: true })).toEqual({ main: camera, overlay: null });
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

    expect(media.getSnapshot()).toMatchObject({ camera: null, screen: null });
    for (const track of [...camera.getTracks(), ...screen.getTracks()]) expect(track.stop).toHaveBeenCalled();
  });

  it('opens an open camera again on the chosen devices, and remembers them for the next one', async () => {
    const first = fakeCapture('first');
    const chosen = fakeCapture('chosen');
    devices.getUserMedia.mockResolvedValueOnce(first).mockResolvedValueOnce(chosen);
    const media = new BroadcastMedia();
    await media.startCamera();

    await media.chooseDevices({ cameraId: 'cam-2', microphoneId: 'mic-2' });

    expect(devices.getUserMedia).toHaveBeenLastCalledWith({
      video: { ...(HIGH_QUALITY_CAMERA.video as MediaTrackConstraints), deviceId: { exact: 'cam-2' } },
      audio: { ...(HIGH_QUALITY_CAMERA.audio as MediaTrackConstraints), deviceId: { exact: 'mic-2' } },
    });
    expect(media.getSnapshot()).toMatchObject({
      camera: chosen,
      devices: { cameraId: 'cam-2', microphoneId: 'mic-2' },
    });
    expect(videoTrackOf(first)?.stop).toHaveBeenCalled();
    // The choice replaced the first picture: no high-quality upgrade comes to undo it.
    await vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS);
    expect(devices.getUserMedia).toHaveBeenCalledTimes(2);

    media.stop('camera');
    devices.getUserMedia.mockResolvedValueOnce(fakeCapture('again'));
    await media.startCamera();
    expect(devices.getUserMedia).toHaveBeenLastCalledWith({
      video: { deviceId: { exact: 'cam-2' } },
      audio: { deviceId: { exact: 'mic-2' } },
    });
  });

  it('only remembers the devices when no camera is open', async () => {
    const media = new BroadcastMedia();

    await media.chooseDevices({ cameraId: 'cam-2', microphoneId: null });

    expect(devices.getUserMedia).not.toHaveBeenCalled();
    expect(media.getSnapshot().devices).toEqual({ cameraId: 'cam-2', microphoneId: null });
  });

  it('mutes the microphone and turns the camera off, also on the high-quality camera that follows', async () => {
    const first = fakeCapture('first');
    const better = fakeCapture('better');
    devices.getUserMedia.mockResolvedValueOnce(first).mockResolvedValueOnce(better);
    const media = new BroadcastMedia();
    await media.startCamera();
    const enabled = (stream: MediaStream) =>
      stream.getTracks().map((track) => (track as unknown as FakeTrack).enabled);

    media.setMicrophoneMuted(true);
    media.setCameraOff(true);
    expect(enabled(first)).toEqual([false, false]);
    expect(media.getSnapshot()).toMatchObject({ isMicrophoneMuted: true, isCameraOff: true });

    await vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS);
    expect(media.getSnapshot().camera).toBe(better);
    expect(enabled(better)).toEqual([false, false]);

    media.setMicrophoneMuted(false);
    expect(enabled(better)).toEqual([false, true]);
    media.setCameraOff(false);
    expect(enabled(better)).toEqual([true, true]);
  });
});
