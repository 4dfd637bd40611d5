/** An error's message, for a reply to another context (a worker's answer to the window). */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
