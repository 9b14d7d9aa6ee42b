import { deleteVerb, id } from '../../core/rest.js';

export const remove = deleteVerb({ summary: 'Delete an internal user (deleteAccountUser)', path: ([userId]) => `/api/v1/users/${id(userId)}`, what: ([u]) => `user ${u}` });
