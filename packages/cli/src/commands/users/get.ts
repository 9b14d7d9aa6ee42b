import { getVerb, id } from '../../core/rest.js';

export const get = getVerb({ summary: 'Show one user (getUser)', path: ([userId]) => `/api/v1/users/${id(userId, 'id')}` });
