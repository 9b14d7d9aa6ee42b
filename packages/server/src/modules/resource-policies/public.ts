/** What other modules may use of resource policies: the content-access decision's types (the service is `contentAccess`). */
export {
  CONTENT_TYPES,
  contentAuthor,
  contentPermission,
  type ContentItem,
  type ContentLevel,
  type ContentType,
  type ReadScope,
} from './content-access.js';
export { policiesOfUser } from './of-user.js';
