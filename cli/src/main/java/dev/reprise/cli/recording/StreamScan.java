package dev.reprise.cli.recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import dev.reprise.core.log.ChunkReader;
import dev.reprise.core.log.EventHeader;
import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.RecordingCorruptException;
import dev.reprise.core.recording.Recording;

/**
 * Reads a whole stream, verifying every chunk: with its event headers, what {@code inspect}
 * reports; by the chunks' event counts alone, what {@code replay} checks before it starts.
 */
public record StreamScan(Path file, String thread, long events, Map<Integer, Long> byOp, long relaxedInRuns,
                         long fileBytes, long rawBytes, long tornAt) {
    /** The name under which a thread writes how many relaxed events it did not write one by one. */
    public static final String RELAXED_RUN = "sync.relaxed.run";

    /** Receives each event header of a stream, numbered from 0. */
    public interface Visitor {
        void event(long number, EventHeader header);
    }

    /** Every event header read; the events of operation {@code runOp} ({@link #RELAXED_RUN}, -1 if unknown) add up their counts. */
    public static StreamScan of(Path stream, int runOp) throws RecordingException {
        return scan(stream, runOp, (n, h) -> { });
    }

    /**
     * Verifies every chunk's checksum and adds up the event counts their headers declare,
     * without decompressing: {@code byOp} stays empty. A recording of millions of events is
     * checked in milliseconds, where decoding every header took most of a second.
     */
    public static StreamScan counted(Path stream) throws RecordingException {
        checkReadable(stream);
        long events = 0;
        long raw = 0;
        try (ChunkReader chunks = new ChunkReader(stream)) {
            for (int n = chunks.nextCount(); n >= 0; n = chunks.nextCount()) {
                events += n;
                raw += chunks.rawLength();
            }
            return new StreamScan(stream, Recording.threadOf(stream), events, Map.of(), 0, Files.size(stream), raw,
                    chunks.tornTail());
        } catch (RecordingCorruptException e) {
            throw RecordingDir.corrupt(e);
        } catch (IOException e) {
            throw new RecordingException(stream, "cannot read: " + e.getMessage());
        }
    }

    public static StreamScan forEach(Path stream, Visitor visitor) throws RecordingException {
        return scan(stream, -1, visitor);
    }

    private static StreamScan scan(Path stream, int runOp, Visitor visitor) throws RecordingException {
        checkReadable(stream);
        EventInput in = new EventInput(stream);
        Map<Integer, Long> byOp = new TreeMap<>();
        long events = 0;
        long relaxed = 0;
        try {
            while (!in.atEnd()) {
                EventHeader h = EventHeader.read(in);
                long payload = in.position();
                if (h.op() == runOp) {
                    relaxed += in.getVarLong();
                }
                in.skip(h.length() - (in.position() - payload));
                byOp.merge(h.op(), 1L, Long::sum);
                visitor.event(events, h);
                events++;
            }
            return new StreamScan(stream, Recording.threadOf(stream), events, byOp, relaxed, Files.size(stream),
                    in.position(), in.tornTail());
        } catch (RecordingCorruptException e) {
            throw RecordingDir.corrupt(e);
        } catch (EventInput.EndOfStream e) {
            throw new RecordingException(stream, fileSize(stream), "corrupt: the last event is cut short");
        } catch (IOException e) {
            throw new RecordingException(stream, "cannot read: " + e.getMessage());
        }
    }

    /** A stream that cannot be opened is unreadable, not corrupt: says why (the format's reader only says it failed). */
    private static void checkReadable(Path stream) throws RecordingException {
        try (java.nio.channels.SeekableByteChannel c = Files.newByteChannel(stream)) {
            // opened: the format's reader can open it too
        } catch (IOException e) {
            throw RecordingException.cannotRead(stream, e);
        }
    }

    private static long fileSize(Path stream) {
        return stream.toFile().length();
    }
}
