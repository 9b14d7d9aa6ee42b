import { getVerb, id } from '../../core/rest.js';

export const get = getVerb({ summary: 'Show one user (getAccountUser)', path: ([userId]) => `/api/v1/users/${id(userId, 'id')}` });
