import { useState } from 'preact/hooks';
import type { EmbedUser } from '../session/claims';

/** The name the avatar stands for: display name, else e-mail, else external id. */
export function nameOf(user: EmbedUser): string {
  return (
    user.userProfile?.displayName?.trim() || user.email?.trim() || user.externalId || (user.id !== undefined ? `User ${user.id}` : 'User')
  );
}

/** Up to two letters: the first of the first two words, or of the part before an e-mail's @. */
export function initialsOf(name: string): string {
  const base = name.includes('@') ? (name.split('@')[0] ?? name) : name;
  const words = base.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]?.[0], words[1]?.[0]] : [base[0], base[1]];
  return letters.filter(Boolean).join('').toUpperCase() || '?';
}

/**
 * The user's picture, loaded by the browser from the customer's URL; when there is none or it
 * fails to load for any reason, the initials instead (no error shown or sent).
 */
export function Avatar({ user }: { user: EmbedUser }) {
  const picture = user.userProfile?.picture;
  const [failed, setFailed] = useState(false);
  const name = nameOf(user);
  if (picture && !failed && /^https?:\/\//i.test(picture)) {
    return (
      <img
        class="avatar"
        src={picture}
        alt={name}
        title={name}
        width={32}
        height={32}
        referrerpolicy="no-referrer"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span class="avatar avatar-initials" role="img" aria-label={name} title={name} data-avatar="initials">
      {initialsOf(name)}
    </span>
  );
}
