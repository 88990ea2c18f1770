// What the client tells the panel about the session: the server's messages
// that the panel shows, and the connection going down. The client calls
// these (client.ts), the panel implements them (panel.ts).

import type {
  HelloMessage,
  InteractionMessage,
  RefusedMessage,
  SettingsAppliedMessage,
  ViewersMessage,
} from "../protocol/messages";

export interface SessionListener {
  hello(m: HelloMessage): void;
  interaction(m: InteractionMessage): void;
  settingsApplied(m: SettingsAppliedMessage): void;
  viewersChanged(m: ViewersMessage): void;
  refused(m: RefusedMessage): void;
  disconnected(): void;
}
