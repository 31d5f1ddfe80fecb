package io.lanemq.delay;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Releases a mapping at once instead of when the GC gets to it. Recovery maps every segment in
 * turn: left to the GC, thousands of dead mappings could hit {@code vm.max_map_count}. Used only
 * for buffers that never left one thread and one method: touching an unmapped buffer crashes the
 * JVM, so shared views are left to the GC.
 */
final class Unmapper {

    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method cleaner = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            cleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // No sun.misc.Unsafe: mappings are released by the GC instead.
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = cleaner;
    }

    private Unmapper() {
    }

    static void unmap(MappedByteBuffer buffer) {
        if (buffer == null || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Left to the GC.
        }
    }
}
