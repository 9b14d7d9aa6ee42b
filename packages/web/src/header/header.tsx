import type { PageParams } from '../lib/params';
import type { EmbedUser } from '../session/claims';
import { Avatar } from './avatar';

interface Props {
  title: string;
  user: EmbedUser;
  creatorMode: boolean;
  params: PageParams;
  onEdit?: () => void;
  onDuplicate?: () => void;
}

/**
 * The dashboard's header: back button, title, Edit and Duplicate (creator-mode sessions only),
 * and the user's avatar. The iframe URL's hide* parameters take each control away.
 */
export function Header({ title, user, creatorMode: creator, params, onEdit, onDuplicate }: Props) {
  return (
    <header class="header">
      {params.hideBackButton ? null : (
        <button type="button" class="icon-button" aria-label="Back" data-control="back" onClick={() => history.back()}>
          <span aria-hidden="true">←</span>
        </button>
      )}
      {params.hideTitle ? <h1 class="visually-hidden">{title}</h1> : <h1 class="title">{title}</h1>}
      <div class="header-actions">
        {creator && !params.hideEdit ? (
          <button type="button" class="button" data-control="edit" onClick={onEdit}>
            Edit
          </button>
        ) : null}
        {creator && !params.hideDuplicate ? (
          <button type="button" class="button" data-control="duplicate" onClick={onDuplicate}>
            Duplicate
          </button>
        ) : null}
        <Avatar user={user} />
      </div>
    </header>
  );
}
