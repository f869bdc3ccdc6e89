// The PostgreSQL advisory locks the app takes, as (class, id) pairs of 32-bit integers. Instances
// on one database coordinate through them (docs/operations.md, "Several instances"); a class of
// the project's own keeps them apart from any other software's locks on the same server.

/** "TA" in the high bytes: every lock of the app is in this class or the next one. */
const PROJECT_LOCK_CLASS = 0x5441_0000;

/** Held for the whole migration run (a session lock): one instance migrates, the others wait. */
export const MIGRATION_LOCK = { classId: PROJECT_LOCK_CLASS, id: 1 } as const;

/**
 * Taken (per transaction) while a sender counts the announcement emails of the last minute and
 * claims the next one, so that instances together keep to ANNOUNCEMENT_MAILS_PER_MINUTE.
 */
export const ANNOUNCEMENT_SENDING_LOCK = { classId: PROJECT_LOCK_CLASS, id: 2 } as const;

/** Scheduled work: one lock per schedule, its id the hash of the schedule's name. */
export const SCHEDULE_LOCK_CLASS = PROJECT_LOCK_CLASS + 1;

/**
 * Taken (per transaction) while a confirmation code is counted against its limits and recorded,
 * so that codes asked for at once, on several instances, cannot pass a limit together.
 */
export const SMS_CODE_LOCK = { classId: PROJECT_LOCK_CLASS, id: 3 } as const;
