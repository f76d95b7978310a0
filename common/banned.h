/*
 * Functions we do not call: unbounded copies and non-reentrant time and
 * tokenising. Included last by every .c file so a use fails to compile.
 */
#ifndef COMMON_BANNED_H
#define COMMON_BANNED_H

#define BANNED(func) sorry_##func##_is_banned

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef atoi
#define atoi(s) BANNED(atoi)

#endif
