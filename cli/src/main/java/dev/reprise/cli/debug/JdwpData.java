package dev.reprise.cli.debug;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The data of JDWP packets, written and read with the target VM's sizes of identifiers
 * (VirtualMachine.IDSizes): the sizes of field, method, object, reference type and frame ids.
 */
record JdwpData(int fieldIdSize, int methodIdSize, int objectIdSize, int referenceTypeIdSize, int frameIdSize) {

    static JdwpData of(byte[] idSizesReply) {
        ByteBuffer b = ByteBuffer.wrap(idSizesReply);
        return new JdwpData(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt());
    }

    /** Whether every identifier is 8 bytes, as {@link JdwpRewrite} reads them (HotSpot's sizes). */
    boolean allEightBytes() {
        return fieldIdSize == 8 && methodIdSize == 8 && objectIdSize == 8 && referenceTypeIdSize == 8 && frameIdSize == 8;
    }

    Out out() {
        return new Out();
    }

    In in(byte[] data) {
        return new In(ByteBuffer.wrap(data));
    }

    /** Builds a packet's data. */
    final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Out u1(int v) {
            bytes.write(v);
            return this;
        }

        Out u4(int v) {
            return id(v, 4);
        }

        Out u8(long v) {
            return id(v, 8);
        }

        Out object(long id) {
            return id(id, objectIdSize);
        }

        Out type(long id) {
            return id(id, referenceTypeIdSize);
        }

        Out method(long id) {
            return id(id, methodIdSize);
        }

        Out field(long id) {
            return id(id, fieldIdSize);
        }

        Out string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            u4(utf8.length);
            bytes.writeBytes(utf8);
            return this;
        }

        Out bytes(byte[] raw, int from, int to) {
            bytes.write(raw, from, to - from);
            return this;
        }

        private Out id(long v, int size) {
            for (int shift = (size - 1) * 8; shift >= 0; shift -= 8) {
                bytes.write((int) (v >>> shift));
            }
            return this;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    /** Reads a packet's data in order. */
    final class In {
        private final ByteBuffer b;

        private In(ByteBuffer b) {
            this.b = b;
        }

        int u1() {
            return b.get() & 0xff;
        }

        int u4() {
            return b.getInt();
        }

        long object() {
            return id(objectIdSize);
        }

        long type() {
            return id(referenceTypeIdSize);
        }

        long method() {
            return id(methodIdSize);
        }

        long field() {
            return id(fieldIdSize);
        }

        String string() {
            byte[] utf8 = new byte[b.getInt()];
            b.get(utf8);
            return new String(utf8, StandardCharsets.UTF_8);
        }

        int position() {
            return b.position();
        }

        private long id(int size) {
            long v = 0;
            for (int i = 0; i < size; i++) {
                v = (v << 8) | (b.get() & 0xff);
            }
            return v;
        }
    }
}
