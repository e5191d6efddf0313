/** How many stream-I/O threads Tokenscope will start, apart from the engine so the CLI's option parsing loads nothing else. */
export const MAX_IO_THREADS = 4;
