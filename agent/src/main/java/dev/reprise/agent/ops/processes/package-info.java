/**
 * Hooks on child processes: their start, and all the program learns of a child afterwards (its
 * exit, its stdin, stdout and stderr, its {@code ProcessHandle}), as events of the program's own
 * threads; and the agents a child attaches to this JVM. A replay starts no child.
 */
package dev.reprise.agent.ops.processes;
