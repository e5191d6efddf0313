/** Whether the run form's fields apply where the form is used (the Run and Sweep modes). */

/**
 * Whether a workload field applies where the form is used (a sweep's steps set the rate, and
 * sometimes the concurrency, themselves), with a short note saying what happens to it.
 */
export interface FieldUse {
  applies: boolean;
  note: string;
}

/** The load fields' use in a sweep (the Sweep mode fills it from its plan). */
export interface LoadFieldsUse {
  rate: FieldUse;
  maxConcurrency: FieldUse;
}
