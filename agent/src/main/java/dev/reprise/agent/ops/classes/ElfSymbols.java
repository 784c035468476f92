package dev.reprise.agent.ops.classes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The dynamic symbols of a 64-bit little-endian ELF shared library (x86-64 and AArch64 Linux):
 * those it defines, which include the JNI functions it exports, and those it imports from other
 * libraries, the C library's among them. Read from the section headers' {@code SHT_DYNSYM}
 * table and the string table it links to; a file that is not such a library has none.
 */
record ElfSymbols(Set<String> defined, Set<String> imported) {
    private static final int SHT_DYNSYM = 11;
    private static final int SYMBOL_SIZE = 24;
    private static final ElfSymbols NONE = new ElfSymbols(Set.of(), Set.of());

    static ElfSymbols of(byte[] file) {
        try {
            return read(ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN));
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            return NONE; // truncated or damaged: the JDK's load says what is wrong with it
        }
    }

    private static ElfSymbols read(ByteBuffer b) {
        if (b.limit() < 64 || b.getInt(0) != 0x464C457F || b.get(4) != 2 || b.get(5) != 1) {
            return NONE; // not ELF, or not 64-bit little-endian
        }
        long sections = b.getLong(0x28);
        int entrySize = Short.toUnsignedInt(b.getShort(0x3A));
        int count = Short.toUnsignedInt(b.getShort(0x3C));
        Set<String> defined = new HashSet<>();
        Set<String> imported = new HashSet<>();
        for (int i = 0; i < count; i++) {
            int header = Math.toIntExact(sections + (long) i * entrySize);
            if (b.getInt(header + 4) != SHT_DYNSYM) {
                continue;
            }
            int table = Math.toIntExact(b.getLong(header + 0x18));
            int size = Math.toIntExact(b.getLong(header + 0x20));
            int strings = Math.toIntExact(sections + (long) b.getInt(header + 0x28) * entrySize);
            int names = Math.toIntExact(b.getLong(strings + 0x18));
            for (int s = table + SYMBOL_SIZE; s + SYMBOL_SIZE <= table + size; s += SYMBOL_SIZE) {
                String name = name(b, names + b.getInt(s));
                if (!name.isEmpty()) {
                    (b.getShort(s + 6) == 0 ? imported : defined).add(name); // section index 0: undefined here
                }
            }
        }
        return new ElfSymbols(defined, imported);
    }

    private static String name(ByteBuffer b, int at) {
        int end = at;
        while (b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - at];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
