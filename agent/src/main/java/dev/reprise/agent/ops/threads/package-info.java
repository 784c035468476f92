/**
 * Hooks on threads and their synchronization: starts (and which started threads act for the JVM,
 * not the program), interrupts, sleeps and joins, monitors and {@code Object.wait},
 * {@code LockSupport} parks, and pool threads that block inside an event. A replay takes them in
 * the recorded order.
 */
package dev.reprise.agent.ops.threads;
