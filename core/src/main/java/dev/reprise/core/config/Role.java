package dev.reprise.core.config;

/** The role this JVM takes: what the agent does with intercepted operations in it. */
public enum Role {
    /** Run live and log results. */
    RECORD,
    /** Take results from the log; perform no external effect but stdout and stderr. */
    REPLAY
}
