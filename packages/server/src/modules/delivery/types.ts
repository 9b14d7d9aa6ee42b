export interface EmailInput {
  accountId: number;
  /** One address or several; each gets the same message. */
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  /** Shown inline: `html` refers to it as `cid:dashboard.png` (the message adds it after `html` when `html` does not). */
  png?: Buffer;
  /** Attached as dashboard.pdf. */
  pdf?: Buffer;
  /** The dashboard's URL, added to the text and the HTML when they do not contain it already. */
  link: string;
}

export interface EmailSent {
  messageId: string;
  /** The addresses the server accepted. */
  accepted: string[];
}

export interface SlackInput {
  accountId: number;
  channelId: string;
  text: string;
  png?: Buffer;
  /** The uploaded image's name; dashboard.png by default. */
  filename?: string;
}

export interface SlackPosted {
  /** The posted message's timestamp (Slack's id of a message in its channel). */
  ts: string;
  /** The uploaded file, when a `png` was sent. */
  fileId?: string;
}

/** The inline image's content id, for `html` to show it with `<img src="cid:dashboard.png">`. */
export const INLINE_PNG_CID = 'dashboard.png';
