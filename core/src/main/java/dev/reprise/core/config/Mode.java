package dev.reprise.core.config;

/** What the agent does with intercepted operations in this JVM. */
public enum Mode {
    /** Run live and log results. */
    RECORD,
    /** Take results from the log; perform no external effect but stdout and stderr. */
    REPLAY
}
