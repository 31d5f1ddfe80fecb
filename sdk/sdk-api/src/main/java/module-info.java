/**
 * What applications code against ({@code io.lanemq.api}) and what a binding implements
 * ({@code io.lanemq.api.spi}); JDK only. The SDK core is found through {@link java.util.ServiceLoader}
 * as an {@link io.lanemq.api.spi.ClientProvider}: on the module path a core module {@code provides} it, on the
 * class path its {@code META-INF/services} entry does.
 */
module io.lanemq.api {
    exports io.lanemq.api;
    exports io.lanemq.api.spi;

    uses io.lanemq.api.spi.ClientProvider;
}
