package dev.reprise.agent.instrument.cache;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.reprise.agent.instrument.VolatileFields;

/**
 * A cached class: its instrumented bytes, none if instrumenting changed no code
 * ({@code Unchanged}: the class is loaded as it is), the names of the call sites its
 * instrumentation registered (for divergence reports), for a class path class what it asked about
 * other classes' fields ({@code VolatileFields.Lookup}: checked again before the entry is used),
 * and its own fields as {@link #declaredBytes} writes them, if its instrumentation read them (else
 * null), so that a hit need not read the class to answer later questions about them: kept
 * unparsed, since only a class instrumented anew may ask about them
 * ({@code VolatileFields.defineKept}), and with a warm cache none is.
 *
 * <p>Written ({@link #write}) the same way in a class's own file ({@link EntryFile}), in a pack
 * ({@link ClassPack}) and in the start-up file ({@link StartupEntriesFile}).
 */
public record CacheEntry(byte[] bytes, List<String> sites, List<String> answers, byte[] declared) {
    /** The bytes that stand for a class instrumenting left as it was. */
    public static final byte[] UNCHANGED = new byte[0];

    public boolean unchanged() {
        return bytes.length == 0;
    }

    static void write(DataOutputStream out, CacheEntry entry) throws IOException {
        writeStrings(out, entry.sites());
        writeStrings(out, entry.answers());
        out.writeBoolean(entry.declared() != null);
        if (entry.declared() != null) {
            out.writeInt(entry.declared().length);
            out.write(entry.declared());
        }
        out.writeInt(entry.bytes().length);
        out.write(entry.bytes());
    }

    /**
     * The entry {@link #write} wrote, its call sites' names read only if {@code sites}: they
     * serve only to be written again ({@link StartupEntriesFile}) or to name sites in a replay's
     * divergence reports ({@code Sites}), and a class load's entry holds one per rewritten call.
     * Its answers are read only if {@code answers}: those of a pack that vouches for them are not
     * asked again ({@link ClassPack}).
     */
    static CacheEntry read(ByteCursor in, boolean sites, boolean answers) throws IOException {
        List<String> siteNames = strings(in, sites);
        List<String> asked = strings(in, answers);
        byte[] declared = in.readBoolean() ? in.readBytes(in.readLength()) : null;
        return new CacheEntry(in.readBytes(in.readLength()), siteNames, asked, declared);
    }

    /** The strings at {@code in}, or none, skipped, if not {@code wanted}. */
    private static List<String> strings(ByteCursor in, boolean wanted) throws IOException {
        if (wanted) {
            return in.readStrings();
        }
        in.skipStrings();
        return List.of();
    }

    /**
     * A class's own fields: its superclass ("" for none), whether it declares a hashCode, then each
     * field as a kind ('v'olatile, 'f'inal, 'h'andled, 'p'lain) and name. Null for null.
     */
    public static byte[] declaredBytes(VolatileFields.Declared d) {
        if (d == null) {
            return null;
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 16 * d.fields().size());
            DataOutputStream out = new DataOutputStream(bytes);
            writeString(out, d.superName() == null ? "" : d.superName());
            out.writeBoolean(d.ownHashCode());
            out.writeInt(d.fields().size());
            for (String f : new java.util.TreeSet<>(d.fields())) { // in an order of their own: the same entry every time
                out.writeByte(d.volatiles().contains(f) ? 'v' : d.finals().contains(f) ? 'f' : d.handled().contains(f) ? 'h' : 'p');
                writeString(out, f);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // not thrown by an array
        }
    }

    /**
     * What {@link #declaredBytes} wrote. Makes the immutable sets straight from arrays, which
     * {@code VolatileFields.Declared}'s {@code Set.copyOf} then keeps as they are: hash sets copied
     * into immutable ones were a sixth of a cache hit when every hit parsed these (BENCHMARKS.md).
     * A section that repeats a name fails {@code Set.of}, and one cut short or with bytes left
     * over throws too: damage, which the caller treats as fields it does not know.
     */
    public static VolatileFields.Declared readDeclared(byte[] section) throws IOException {
        ByteCursor in = new ByteCursor(section, 0, section.length);
        String superName = in.readString();
        boolean hashCode = in.readBoolean();
        int n = in.readLength();
        String[] fields = new String[n];
        String[] volatiles = new String[n];
        String[] finals = new String[n];
        String[] handled = new String[n];
        int v = 0;
        int f = 0;
        int h = 0;
        for (int i = 0; i < n; i++) {
            int kind = in.readByte();
            String name = in.readString();
            fields[i] = name;
            if (kind == 'v') {
                volatiles[v++] = name;
            } else if (kind == 'f') {
                finals[f++] = name;
            } else if (kind == 'h') {
                handled[h++] = name;
            }
        }
        if (in.remaining() != 0) {
            throw new EOFException("a section longer than its fields");
        }
        return new VolatileFields.Declared(superName.isEmpty() ? null : superName, Set.of(fields),
                Set.of(Arrays.copyOf(volatiles, v)), Set.of(Arrays.copyOf(finals, f)), Set.of(Arrays.copyOf(handled, h)), hashCode);
    }

    /**
     * A string as its UTF-8 bytes after their count: a run reads thousands of these, and decoding
     * them as the JDK decodes a String's bytes is much faster than {@code readUTF}'s modified UTF-8.
     */
    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static void writeStrings(DataOutputStream out, List<String> strings) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            writeString(out, s);
        }
    }
}
