/**
 * Hooks on what a run draws from outside the program's code: clocks, entropy, environment
 * variables and machine figures, the state the JVM fixed before {@code main}, and identity hashes.
 */
package dev.reprise.agent.ops.environment;
