<#-- A report over the items: loops, conditionals, built-ins, a macro. -->
<#macro row item>
| ${item.id?string("0000")} | ${item.name?upper_case} | ${item.price?string("0.00")} | ${item.tags?join(",")} |
</#macro>
# ${title}

<#list items?sort_by("name") as item>
<#if item.price gt 50><@row item=item/></#if>
</#list>

Total: ${items?size} items, expensive: ${items?filter(i -> i.price gt 50)?size}
<#assign sum = 0><#list items as i><#assign sum = sum + i.price></#list>
Sum: ${sum?string("0.00")}
