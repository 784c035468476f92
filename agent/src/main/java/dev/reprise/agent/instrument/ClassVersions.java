package dev.reprise.agent.instrument;

import org.objectweb.asm.Opcodes;

/** What a pass may write into a class file of a given version. */
final class ClassVersions {
    private ClassVersions() {
    }

    /**
     * The version a class file must have for a pass to {@code ldc} a class into it: a file older
     * than Java 5 (49) may not, and its verifier rejects the class ("Illegal type in constant
     * pool"), as libraries compiled for Java 1.4 and before still are (commons-collections 3). Such
     * a file is raised to 49, whose rules are otherwise those of the older versions: the same
     * verifier, no stack map frames (50), {@code jsr} still allowed (51). Only at a class's first
     * load, where the passes that need it run.
     */
    static int allowingClassConstants(int version) {
        return (version & 0xFFFF) < Opcodes.V1_5 ? Opcodes.V1_5 : version;
    }
}
