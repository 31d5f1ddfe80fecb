package io.lanemq.benchmarks.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The figures of a benchmark run as one aligned table (for the console), a CSV file (for people who compare runs)
 * and a PNG bar chart of every figure against its target (people look at a chart first).
 *
 * <p>The chart puts figures of different units on one axis by drawing each as its {@link Target#attainment}: the
 * judged number as a multiple of what the target asks, 1 on the target line and higher when better, whether the
 * target is "at least" or "at most". Figures without a target are in the table and the CSV only.
 */
public final class BenchReport {

    /** Numbers right-aligned, so their digits line up; text left-aligned; the note last and unpadded. */
    private static final List<Column> COLUMNS = List.of(
            Column.text("id", Figure::id),
            Column.text("figure", Figure::name),
            Column.number("measured", f -> f.outcome() == Figure.Outcome.ERROR ? "-" : withUnit(Numbers.format(f.measured()), f.unit())),
            Column.number("baseline", f -> f.baseline() == null ? "-" : withUnit(Numbers.format(f.baseline()), f.unit())),
            Column.number("ratio", f -> Numbers.format(f.ratio())),
            Column.text("target", f -> f.target() == null ? "-" : f.target().toString()),
            Column.number("CPU-ms/msg", f -> Numbers.format(f.cpuMsPerMessage())),
            Column.text("result", f -> f.outcome().label()),
            Column.text("note", Figure::note));

    private static final Color MET = new Color(46, 139, 87);
    private static final Color MISSED = new Color(205, 55, 55);

    private final List<Figure> figures;

    public BenchReport(List<Figure> figures) {
        this.figures = List.copyOf(figures);
    }

    /**
     * A benchmark run alone (its own subcommand): measures, prints the table of its figures, and answers the exit
     * status: 1 when a target was missed, 0 otherwise.
     */
    public static int standalone(FigureBenchmark benchmark) throws Exception {
        BenchReport report = new BenchReport(benchmark.measure());
        System.out.println();
        report.printTable(System.out);
        return report.figures.stream().anyMatch(f -> f.outcome() == Figure.Outcome.MISS || f.outcome() == Figure.Outcome.ERROR) ? 1 : 0;
    }

    public List<Figure> figures() {
        return figures;
    }

    /** Whether a benchmark crashed (a row marked {@code error}); a missed target is not an error. */
    public boolean hasErrors() {
        return figures.stream().anyMatch(f -> f.outcome() == Figure.Outcome.ERROR);
    }

    /** The table with a header line, columns padded to their widest cell, the note last and unpadded. */
    public String table() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS.stream().map(Column::header).toList());
        for (Figure figure : figures) {
            rows.add(COLUMNS.stream().map(c -> c.cell().apply(figure)).toList());
        }
        int[] widths = new int[COLUMNS.size()];
        for (List<String> row : rows) {
            for (int c = 0; c < widths.length; c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder table = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < widths.length; c++) {
                boolean last = c == widths.length - 1;
                String cell = row.get(c);
                line.append(last ? cell : pad(cell, widths[c], COLUMNS.get(c).rightAligned()));
                if (!last) {
                    line.append("  ");
                }
            }
            table.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return table.toString();
    }

    public void printTable(PrintStream out) {
        out.print(table());
        long passed = count(Figure.Outcome.PASS);
        long missed = count(Figure.Outcome.MISS);
        long errors = count(Figure.Outcome.ERROR);
        out.printf("%d figures: %d met, %d missed, %d errors, %d reported without a verdict (no target, or a smaller "
                + "workload than its target's)%n", figures.size(), passed, missed, errors, count(Figure.Outcome.REPORTED));
    }

    private long count(Figure.Outcome outcome) {
        return figures.stream().filter(f -> f.outcome() == outcome).count();
    }

    /** One CSV row per figure, with a header; numbers unformatted, absent ones empty. */
    public void writeCsv(Path file) throws IOException {
        createParent(file);
        CsvMapper mapper = new CsvMapper();
        CsvSchema schema = mapper.schemaFor(CsvRow.class).withHeader();
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            mapper.writer(schema).writeValues(writer).writeAll(figures.stream().map(CsvRow::of).toList());
        }
    }

    /** The chart of every figure judged against a target (and every error, at 0) against the target line. */
    public void writePng(Path file) throws IOException {
        createParent(file);
        List<String> labels = new ArrayList<>();
        List<Double> met = new ArrayList<>();
        List<Double> missed = new ArrayList<>();
        for (Figure figure : figures) {
            if ((figure.target() == null || figure.outcome() == Figure.Outcome.REPORTED) && figure.outcome() != Figure.Outcome.ERROR) {
                continue; // a figure without a verdict is no bar against a target line
            }
            labels.add(label(figure, labels.size()));
            double attainment = figure.target() == null ? 0 : figure.target().attainment(figure.judged());
            met.add(figure.outcome() == Figure.Outcome.PASS ? attainment : 0);
            missed.add(figure.outcome() == Figure.Outcome.PASS ? 0 : attainment);
        }
        if (labels.isEmpty()) {
            labels.add("no figure with a target");
            met.add(0.0);
            missed.add(0.0);
        }
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 110 * labels.size())).height(820)
                .title("Each figure against its target (1 = the target; higher is better, capped at "
                        + Numbers.exact(Target.ATTAINMENT_CAP) + ")")
                .yAxisTitle("value / target (\"at most\" targets: target / value)").build();
        CategoryStyler styler = chart.getStyler();
        styler.setOverlapped(true);
        styler.setXAxisLabelRotation(70);
        styler.setYAxisMin(0.0);
        styler.setYAxisMax(Target.ATTAINMENT_CAP);
        styler.setPlotGridVerticalLinesVisible(false);
        styler.setLegendPosition(LegendPosition.InsideNE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.addSeries("met", labels, met).setFillColor(MET);
        chart.addSeries("missed / error", labels, missed).setFillColor(MISSED);
        CategorySeries target = chart.addSeries("target", labels, Collections.nCopies(labels.size(), 1.0));
        target.setChartCategorySeriesRenderStyle(CategorySeriesRenderStyle.Line);
        target.setLineColor(Color.BLACK);
        target.setMarker(SeriesMarkers.NONE);
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Short enough to read rotated; unique, since equal categories would share a bar. */
    private static String label(Figure figure, int index) {
        String name = figure.name().length() > 26 ? figure.name().substring(0, 25) + "…" : figure.name();
        String value = figure.outcome() == Figure.Outcome.ERROR ? "error"
                : Numbers.format(figure.judged()) + " (" + figure.target() + ")";
        return (index + 1) + ". " + figure.id() + " " + name + ": " + value;
    }

    private static String withUnit(String number, String unit) {
        return unit.isEmpty() ? number : number + " " + unit;
    }

    private static String pad(String cell, int width, boolean right) {
        String spaces = " ".repeat(width - cell.length());
        return right ? spaces + cell : cell + spaces;
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    private record Column(String header, Function<Figure, String> cell, boolean rightAligned) {
        static Column text(String header, Function<Figure, String> cell) {
            return new Column(header, cell, false);
        }

        static Column number(String header, Function<Figure, String> cell) {
            return new Column(header, cell, true);
        }
    }

    @JsonPropertyOrder({"id", "figure", "measured", "unit", "baseline", "ratio", "target", "cpu_ms_per_message", "result", "note"})
    private record CsvRow(String id, String figure, Double measured, String unit, Double baseline, Double ratio,
                          String target, @JsonProperty("cpu_ms_per_message") Double cpuMsPerMessage, String result,
                          String note) {
        static CsvRow of(Figure f) {
            return new CsvRow(f.id(), f.name(), Double.isNaN(f.measured()) ? null : f.measured(), f.unit(), f.baseline(),
                    f.ratio(), f.target() == null ? "" : f.target().toString(), f.cpuMsPerMessage(), f.outcome().label(),
                    f.note());
        }
    }
}
