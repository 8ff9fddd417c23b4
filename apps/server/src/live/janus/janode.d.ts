// The part of janode (Meetecho's Janus client, plain JavaScript) that Stagedoor uses, typed.

declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface Jsep {
    type: 'offer' | 'answer';
    sdp: string;
  }

  export interface JanodeHandle extends EventEmitter {
    readonly id: number;
    detach(): Promise<void>;
    trickle(candidate: object | null): Promise<void>;
    /** A plugin request; a success answers Janus's message, its `plugindata.data` the plugin's answer. */
    message(body: object): Promise<{ plugindata?: { data?: unknown } }>;
  }

  export interface JanodePlugin<H extends JanodeHandle> {
    id: string;
    Handle: new (...args: never[]) => H;
    EVENT: Record<string, string>;
  }

  export interface JanodeSession extends EventEmitter {
    readonly id: number;
    attach<H extends JanodeHandle>(plugin: JanodePlugin<H>): Promise<H>;
    destroy(): Promise<void>;
  }

  export interface JanodeConnection extends EventEmitter {
    create(keepAliveSeconds?: number): Promise<JanodeSession>;
    getInfo(): Promise<unknown>;
    close(): Promise<void>;
  }

  export interface JanodeConfig {
    address: { url: string; apisecret?: string };
    retry_time_secs?: number;
    max_retries?: number;
  }

  const Janode: {
    connect(config: JanodeConfig): Promise<JanodeConnection>;
    Logger: { setLevel(level: 'none' | 'error' | 'warning' | 'info' | 'verbose' | 'debug'): string };
    EVENT: {
      CONNECTION_CLOSED: string;
      CONNECTION_ERROR: string;
      SESSION_DESTROYED: string;
      HANDLE_DETACHED: string;
      HANDLE_WEBRTCUP: string;
    };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import type { JanodeHandle, JanodePlugin, Jsep } from 'janode';

  export interface VideoRoomStream {
    type: 'audio' | 'video' | 'data';
    mid: string;
    feed_id?: number;
  }

  export interface VideoRoomHandle extends JanodeHandle {
    create(params: {
      room: number;
      description: string;
      is_private: boolean;
      permanent: boolean;
      admin_key?: string;
      max_publishers: number;
      bitrate: number;
      fir_freq: number;
      audiocodec: string;
      videocodec: string;
    }): Promise<{ room: number }>;
    destroy(params: { room: number }): Promise<{ room: number }>;
    list(params: { admin_key?: string }): Promise<{ list: { room: number; description: string }[] }>;
    kick(params: { room: number; feed: number }): Promise<unknown>;
    joinConfigurePublisher(params: {
      room: number;
      feed: number;
      display: string;
      audio: boolean;
      video: boolean;
      jsep: Jsep;
    }): Promise<{ feed: number; jsep?: Jsep }>;
    /** A publisher's settings; `record` with `filename` starts (or stops) Janus's .mjr recording of it. */
    configure(params: { record?: boolean; filename?: string }): Promise<unknown>;
    joinSubscriber(params: {
      room: number;
      streams: { feed: number }[];
      autoupdate: boolean;
    }): Promise<{ jsep?: Jsep; streams?: VideoRoomStream[] }>;
    start(params: { jsep: Jsep }): Promise<unknown>;
  }

  const VideoRoom: JanodePlugin<VideoRoomHandle> & {
    EVENT: { VIDEOROOM_DESTROYED: string; VIDEOROOM_ERROR: string };
  };
  export default VideoRoom;
}
