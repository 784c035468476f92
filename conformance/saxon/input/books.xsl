<?xml version="1.0" encoding="UTF-8"?>
<!-- XSLT 3.0: grouping, sorting, maps and formatted numbers over the generated library. -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    exclude-result-prefixes="xs map">
  <xsl:output method="xml" indent="yes"/>
  <xsl:template match="/library">
    <report books="{count(book)}">
      <xsl:for-each-group select="book" group-by="author">
        <xsl:sort select="current-grouping-key()"/>
        <author name="{current-grouping-key()}" count="{count(current-group())}"
                total="{format-number(sum(current-group()/price), '#,##0.00')}"
                oldest="{min(current-group()/@year)}">
          <xsl:for-each select="current-group()[position() le 3]">
            <xsl:sort select="xs:decimal(price)" order="descending"/>
            <title><xsl:value-of select="upper-case(title)"/></title>
          </xsl:for-each>
        </author>
      </xsl:for-each-group>
      <xsl:variable name="decades" as="map(xs:integer, xs:integer)"
          select="map:merge(for $d in distinct-values(book/(@year idiv 10)) return map{xs:integer($d): count(book[@year idiv 10 = $d])})"/>
      <xsl:for-each select="sort(map:keys($decades))">
        <decade start="{. * 10}" books="{$decades(.)}"/>
      </xsl:for-each>
    </report>
  </xsl:template>
</xsl:stylesheet>
