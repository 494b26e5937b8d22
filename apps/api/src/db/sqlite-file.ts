/** The SQLite file's name in DATA_DIR (its own module: the configuration names it without opening a database). */
export const SQLITE_FILE = 'frontdoor.sqlite';
