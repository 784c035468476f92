/**
 * Hooks on the JVM's own workings as the program sees them: class loading and the class path,
 * hidden classes, reflected calls and the order of reflected members, of {@code Set.of} and of
 * module service providers, native libraries, jars appended through {@code Instrumentation}, the
 * references the collector clears, and the cleanups (finalizers, cleaners) it sets off.
 */
package dev.reprise.agent.ops.classes;
