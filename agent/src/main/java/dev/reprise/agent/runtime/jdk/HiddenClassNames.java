package dev.reprise.agent.runtime.jdk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The parts of a hidden class that are the same in every run: its name without the address the JVM
 * appends, and a lambda's class without the count, both of which differ between a recording and
 * its replays; and its class file, but for the name it holds.
 */
public final class HiddenClassNames {
    /** The digest's start, and its multiplier: FNV-1a's 64-bit prime. */
    private static final long SEED = 0x632BE59BD9B4E013L;
    private static final long PRIME = 0x100000001B3L;
    /** The constant pool's tag of a string. */
    private static final int UTF8 = 1;

    private HiddenClassNames() {
    }

    /** A hidden class's name without {@code /address} and a trailing {@code $count}. */
    public static String stem(String name) {
        int slash = name.indexOf('/');
        int end = slash < 0 ? name.length() : slash;
        int digits = end;
        while (digits > 0 && Character.isDigit(name.charAt(digits - 1))) {
            digits--;
        }
        boolean counted = digits < end && digits > 0 && name.charAt(digits - 1) == '$';
        return name.substring(0, counted ? digits - 1 : end);
    }

    /**
     * A digest of class file {@code bytes} that leaves out each occurrence of the class's own
     * internal name {@code name} (in it, a lambda's count), taking its {@link #stem} instead: the
     * same for the same class in every run, whichever thread spins it. Two lambdas of one host
     * differ in what they call, so in their bytes. The constant pool's strings are digested
     * without their lengths, which the name's count changes too: on JDK 17 a replay that spun
     * lambda 99 where its recording spun lambda 101 otherwise gave it another digest, so other
     * identity hashes to its objects (kotlinc's disposables, keys of a map it walks).
     */
    public static long contentDigest(byte[] bytes, String name) {
        byte[] own = name.replace('.', '/').getBytes(StandardCharsets.UTF_8);
        long stem = stem(name).hashCode();
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            long h = digest(SEED, bytes, 0, 8, own, stem); // magic and version
            in.position(8);
            int constants = in.getShort() & 0xFFFF;
            for (int i = 1; i < constants; i++) {
                int at = in.position();
                int tag = bytes[at];
                int size = constantSize(in, at);
                if (tag == UTF8) {
                    h = digest((h ^ tag) * PRIME, bytes, at + 3, size - 2, own, stem);
                    h = (h ^ 0x100) * PRIME; // the string's end, in place of its length
                } else {
                    h = digest(h, bytes, at, size + 1, own, stem);
                }
                i += wide(tag) ? 1 : 0;
                in.position(at + 1 + size);
            }
            return digest(h, bytes, in.position(), bytes.length - in.position(), own, stem);
        } catch (RuntimeException unreadable) {
            return digest(SEED, bytes, 0, bytes.length, own, stem);
        }
    }

    /**
     * The size of the constant pool entry whose tag is at {@code at}, the tag left out; throws
     * {@link IllegalArgumentException} for a tag this does not know.
     */
    private static int constantSize(ByteBuffer in, int at) {
        int tag = in.get(at);
        return switch (tag) {
            case UTF8 -> 2 + (in.getShort(at + 1) & 0xFFFF);
            case 5, 6 -> 8;
            case 3, 4, 9, 10, 11, 12, 17, 18 -> 4;
            case 15 -> 3;
            case 7, 8, 16, 19, 20 -> 2;
            default -> throw new IllegalArgumentException("constant pool tag " + tag);
        };
    }

    /** Whether a constant of {@code tag} (a long or a double) takes two entries of the pool. */
    private static boolean wide(int tag) {
        return tag == 5 || tag == 6;
    }

    /** {@code h} and {@code length} bytes from {@code from}, each occurrence of {@code own} digested as {@code stem}. */
    private static long digest(long h, byte[] bytes, int from, int length, byte[] own, long stem) {
        int end = from + length;
        int i = from;
        while (i < end) {
            if (own.length > 0 && bytes[i] == own[0] && i + own.length <= end && startsAt(bytes, i, own)) {
                h = (h ^ stem) * PRIME;
                i += own.length;
            } else {
                h = (h ^ bytes[i]) * PRIME;
                i++;
            }
        }
        return h;
    }

    /** Whether {@code part}, which fits before the end of {@code bytes} from {@code at}, is there. */
    private static boolean startsAt(byte[] bytes, int at, byte[] part) {
        for (int k = 1; k < part.length; k++) {
            if (bytes[at + k] != part[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether class file {@code bytes} declares a field that is not static. A lambda's class without
     * one captures nothing, and the JDK makes one object of it, which every thread that runs the
     * lambda's expression shares. True for a class file this cannot read.
     */
    public static boolean declaresInstanceFields(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            in.position(8);
            int constants = in.getShort() & 0xFFFF;
            for (int i = 1; i < constants; i++) {
                int at = in.position();
                i += wide(bytes[at]) ? 1 : 0;
                in.position(at + 1 + constantSize(in, at));
            }
            in.position(in.position() + 6); // access flags, this class, superclass
            int interfaces = in.getShort() & 0xFFFF;
            in.position(in.position() + 2 * interfaces);
            int fields = in.getShort() & 0xFFFF;
            for (int f = 0; f < fields; f++) {
                int access = in.getShort();
                if ((access & 0x0008) == 0) {
                    return true;
                }
                in.position(in.position() + 4); // name, descriptor
                int attributes = in.getShort() & 0xFFFF;
                for (int a = 0; a < attributes; a++) {
                    in.position(in.position() + 2);
                    int length = in.getInt();
                    in.position(in.position() + length);
                }
            }
            return false;
        } catch (RuntimeException damaged) {
            return true;
        }
    }
}
