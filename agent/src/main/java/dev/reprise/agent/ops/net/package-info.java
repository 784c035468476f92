/**
 * Hooks on the network: sockets' lives and traffic, waits for their readiness and host-name
 * lookups. A replay opens no socket: each stands in as a descriptor of its own, and the order in
 * which threads reached each other through the kernel is replayed as recorded.
 */
package dev.reprise.agent.ops.net;
