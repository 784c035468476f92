package conformance.poi;

import java.io.*;
import java.nio.file.*;
import org.apache.poi.ss.usermodel.*;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/** Apache POI: writes a workbook of 200 rows with formulas and styles, reads it back and evaluates the formulas. */
public class Workbooks {
    public static void main(String[] a) throws Exception {
        Path f = Path.of("book.xlsx");
        try (Workbook wb = new XSSFWorkbook()) {
            Sheet s = wb.createSheet("data");
            CellStyle bold = wb.createCellStyle();
            Font font = wb.createFont();
            font.setBold(true);
            bold.setFont(font);
            for (int r = 0; r < 200; r++) {
                Row row = s.createRow(r);
                for (int c = 0; c < 8; c++) {
                    Cell cell = row.createCell(c);
                    if (r == 0) { cell.setCellValue("col" + c); cell.setCellStyle(bold); }
                    else if (c == 7) cell.setCellFormula("SUM(A" + (r + 1) + ":G" + (r + 1) + ")");
                    else cell.setCellValue(r * 10 + c + 0.5);
                }
            }
            try (OutputStream out = Files.newOutputStream(f)) { wb.write(out); }
        }
        try (Workbook wb = WorkbookFactory.create(f.toFile())) {
            FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
            Sheet s = wb.getSheetAt(0);
            double total = 0;
            for (Row row : s) {
                if (row.getRowNum() == 0) continue;
                total += ev.evaluate(row.getCell(7)).getNumberValue();
            }
            System.out.println("rows " + s.getPhysicalNumberOfRows() + " total " + total);
        }
        System.out.println("size " + Files.size(f));
    }
}
