/** Where the API is mounted: the path every client's API root ends with. */
export const API_PREFIX = '/api';
