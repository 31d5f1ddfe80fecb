package io.lanemq.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {

    private static final List<Figure> FIGURES = List.of(
            Figure.of("P1", "SDK sync send vs raw, 8 threads, 300 B").measured(12_918.4, "msgs/s").baseline(12_032.1)
                    .target(Targets.P1_SDK_VS_RAW_SYNC).cpuMsPerMessage(0.213).note("round ratios 0.97 1.23").build(),
            Figure.of("P8", "idle: the stack alone").measured(16.6, "% of a core").target(Targets.P8_IDLE_STACK_PERCENT)
                    .note("broker idc-a-0 7.1, \"quoted\", with a comma").build(),
            Figure.of("P3", "drain throughput vs DIRECT").measured(21_362, "msgs/s").baseline(46_306).build(),
            Figure.error("P5", "idc-failover crashed", new IllegalStateException("no broker")));

    private final BenchReport report = new BenchReport(FIGURES);

    @Test
    void theTableHasAHeaderAndOneLinePerFigureWithEveryColumnAligned() {
        List<String> lines = report.table().lines().toList();

        assertThat(lines).hasSize(1 + FIGURES.size());
        String header = lines.get(0);
        assertThat(header).startsWith("id").contains("figure", "measured", "baseline", "ratio", "target", "CPU-ms/msg", "result", "note");
        int resultColumn = header.indexOf("result");
        assertThat(lines.get(1).substring(resultColumn)).as("P1's result under the header").startsWith("pass");
        assertThat(lines.get(2).substring(resultColumn)).as("P8 at 16.6% against 5%").startsWith("miss");
        assertThat(lines.get(3).substring(resultColumn)).as("no target: reported").startsWith("-");
        assertThat(lines.get(4).substring(resultColumn)).startsWith("error");
        int noteColumn = header.indexOf("note");
        assertThat(lines.get(4).substring(noteColumn)).isEqualTo("IllegalStateException: no broker");
    }

    @Test
    void theTableWritesNumbersForPeopleAndRightAlignsThem() {
        String p1 = report.table().lines().toList().get(1);

        assertThat(p1).contains("12,918 msgs/s", "12,032 msgs/s", "1.07", "ratio >= 0.95", "0.213");
        String header = report.table().lines().findFirst().orElseThrow();
        int cpuEnd = header.indexOf("CPU-ms/msg") + "CPU-ms/msg".length();
        assertThat(p1.substring(0, cpuEnd)).as("the CPU figure ends where its header does").endsWith("0.213");
    }

    @Test
    void theCsvHasAHeaderAndOneRowPerFigureWithUnformattedNumbersAndQuotedText(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("out/bench.csv");

        report.writeCsv(csv);

        List<Map<String, String>> rows = readCsv(csv);
        assertThat(rows).hasSize(FIGURES.size());
        assertThat(rows.get(0)).containsEntry("id", "P1").containsEntry("measured", "12918.4").containsEntry("baseline", "12032.1")
                .containsEntry("unit", "msgs/s").containsEntry("target", "ratio >= 0.95").containsEntry("cpu_ms_per_message", "0.213")
                .containsEntry("result", "pass");
        assertThat(Double.parseDouble(rows.get(0).get("ratio"))).isEqualTo(12_918.4 / 12_032.1);
        assertThat(rows.get(1)).as("a note with quotes and a comma survives")
                .containsEntry("note", "broker idc-a-0 7.1, \"quoted\", with a comma").containsEntry("result", "miss");
        assertThat(rows.get(2)).as("absent numbers are empty").containsEntry("target", "").containsEntry("cpu_ms_per_message", "");
        assertThat(rows.get(3)).containsEntry("result", "error").containsEntry("measured", "");
    }

    @Test
    void theChartIsARealPngOfAReadableSize(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("bench.png");

        report.writePng(png);

        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(1_000);
        assertThat(Arrays.copyOf(bytes, 8)).as("the PNG signature")
                .containsExactly(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("an image ImageIO can decode").isNotNull();
        assertThat(image.getWidth()).isGreaterThanOrEqualTo(900);
        assertThat(image.getHeight()).isEqualTo(820);
    }

    @Test
    void aChartWithNoTargetStillRenders(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("empty.png");

        new BenchReport(List.of(FIGURES.get(2))).writePng(png);

        assertThat(ImageIO.read(png.toFile())).isNotNull();
    }

    @Test
    void errorsAreErrorsButMissesAreNot() {
        assertThat(report.hasErrors()).isTrue();
        assertThat(new BenchReport(FIGURES.subList(0, 3)).hasErrors()).as("a miss is reported, not an error").isFalse();
    }

    private static List<Map<String, String>> readCsv(Path csv) throws IOException {
        CsvMapper mapper = new CsvMapper();
        try (MappingIterator<Map<String, String>> rows = mapper.readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(csv.toFile())) {
            return rows.readAll();
        }
    }
}
