/**
 * Hooks on the program's files: {@code java.io} streams, {@code RandomAccessFile}, descriptors and
 * {@code File}'s questions and changes, and {@code java.nio.file}'s metadata, path changes,
 * directory listings and file channels; ZIP archives, read live, and the archives the program wrote.
 * Recording logs what the disk answered; a replay answers from the recording and touches no file.
 */
package dev.reprise.agent.ops.files;
