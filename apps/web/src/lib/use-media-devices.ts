import { useEffect, useState } from 'react';

type MediaDeviceLists = { cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] };

const NONE: MediaDeviceLists = { cameras: [], microphones: [] };

/**
 * The cameras and microphones of this machine, kept current as devices come and go. Browsers only
 * name them once a capture was allowed, so `refreshKey` (the open camera) asks again.
 */
export function useMediaDevices(refreshKey: unknown): MediaDeviceLists {
  const [lists, setLists] = useState(NONE);

  useEffect(() => {
    const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!devices?.enumerateDevices) return;
    let active = true;
    const read = () =>
      devices.enumerateDevices().then(
        (all) => {
          if (!active) return;
          setLists({
            cameras: all.filter((device) => device.kind === 'videoinput' && device.deviceId),
            microphones: all.filter((device) => device.kind === 'audioinput' && device.deviceId),
          });
        },
        (error: unknown) => console.warn('Could not list the cameras and microphones', error),
      );
    void read();
    devices.addEventListener?.('devicechange', read);
    return () => {
      active = false;
      devices.removeEventListener?.('devicechange', read);
    };
  }, [refreshKey]);

  return lists;
}
