package dev.reprise.agent.instrument;

import java.util.Collections;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.ordering.RaceWatch;

/**
 * Keeps the race watch off the JDK's own calls into the collection classes it watches: brackets
 * each call from JDK code outside {@code java.util}'s collections to one of them with
 * {@link RaceWatch#unwatched} and {@link RaceWatch#watched}. The JDK shares its own lists under
 * locks Reprise does not order (the logger tree's), which the watch would report as races. Only
 * in recordings that watch, whose replays lack the bracket: it changes nothing but the watch.
 */
final class UnwatchedCallRewriter extends CallBracketRewriter {
    UnwatchedCallRewriter(ClassVisitor next) {
        super(next, Type.getInternalName(RaceWatch.class), "unwatched", "watched");
    }

    /** Whether this run watches and the JDK class's constant pool names a collection class the watch sees. */
    static boolean applies(String className, ClassReader reader) {
        return RaceWatch.on() && QuietCallRewriter.candidate(className) && QuietCallRewriter.collectionsToo(className)
                && !Collections.disjoint(RaceWatch.JDK_COLLECTIONS, ConstantPool.names(reader, ConstantPool.CLASS));
    }

    @Override
    boolean brackets(String owner) {
        return RaceWatch.JDK_COLLECTIONS.contains(owner);
    }
}
